#include "sim/release_recoil.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "sim/force_field.h"
#include "sim/world_model.h"
#include "sim/world_scratch.h"
#include "sim/world_state.h"

namespace weft {
namespace {

// Kinetic plus gravitational energy of vertices [0, n) (the gravitational from the origin), J.
double kinetic_and_height(const float* mass, const glm::vec3* x, const glm::vec3* v, size_t n, glm::vec3 g) {
  double e = 0;
  for (size_t i = 0; i < n; ++i)
    e += double(mass[i]) * (0.5 * double(glm::dot(v[i], v[i])) - double(glm::dot(g, x[i])));
  return e;
}

}  // namespace

float recoil_scale(const float* mass, const uint8_t* kinematic, const glm::vec3* v0, const glm::vec3* v, size_t n,
                   glm::vec3 gravity, float h, double over, double max_taken, glm::vec3 shift) {
  double a = 0, b = 0, c = over;
  const glm::dvec3 hg = double(h) * glm::dvec3(gravity);
  for (size_t i = 0; i < n; ++i) {
    if (kinematic[i]) continue;
    const double m = mass[i];
    const glm::dvec3 start(v0[i]);
    const glm::dvec3 base = start + glm::dvec3(shift);
    const glm::dvec3 d = glm::dvec3(v[i]) - base;
    a += 0.5 * m * glm::dot(d, d);
    b += m * glm::dot(base, d);
    c += 0.5 * m * (glm::dot(base, base) - glm::dot(start, start)) - m * glm::dot(hg, glm::dvec3(v[i]));
  }
  const double excess = a + b + c;
  if (excess <= 0.0 || !(max_taken > 0.0)) return 1.f;  // the step keeps the budget, or nothing may be taken
  if (excess > max_taken) c -= excess - max_taken;
  if (c >= 0.0 || !(a > 0.0)) return 0.f;
  return float(std::clamp((-b + std::sqrt(std::max(0.0, b * b - 4.0 * a * c))) / (2.0 * a), 0.0, 1.0));
}

void open_release_recoil(const WorldModel& model, WorldState& state) {
  const double ticks = double(model.config.interaction.release_time) * model.config.tick_hz;
  state.recoil.ticks_left = std::max(state.recoil.ticks_left, uint32_t(std::lround(ticks)));
  state.recoil.rebase = true;
}

bool begin_release_recoil(const WorldModel& model, WorldState& state, WorldScratch& scratch) {
  ReleaseRecoil& r = state.recoil;
  bool sliding = false;
  for (int d = 0; d < kDeviceCount; ++d) sliding = sliding || state.release[d].active;
  if (r.ticks_left == 0 && !sliding) return false;
  if (r.ticks_left > 0) --r.ticks_left;
  bool holding = !state.seam_driven.empty();
  for (int d = 0; d < kDeviceCount; ++d) holding = holding || (!state.held[d].vertex.empty() && !state.release[d].active);
  // A moving rigid box does work on the cloth too (its energy is not in the cloth's budget).
  for (const RigidBox& b : state.boxes)
    holding = holding || glm::dot(b.linear_velocity, b.linear_velocity) + glm::dot(b.angular_velocity, b.angular_velocity) > 0.f;
  if (holding) {  // a hand, an open seam or a moving box does work: the budget is taken again once it stops
    r.rebase = true;
    return false;
  }
  const ClothState& c = state.cloth;
  const size_t n = c.velocity.size();
  std::memcpy(scratch.v_start.data(), c.velocity.data(), n * sizeof(glm::vec3));
  r.elastic_start = compute_energy(model.cloth, c.position.data(), c.velocity.data()).elastic;
  if (r.rebase) {
    r.budget = kinetic_and_height(model.cloth.mass.data(), c.position.data(), c.velocity.data(), n,
                                  model.cloth.material.gravity);
    r.rebase = false;
  }
  return true;
}

float end_release_recoil(const WorldModel& model, WorldState& state, const WorldScratch& scratch, float h) {
  ClothState& c = state.cloth;
  const size_t n = c.velocity.size();
  const glm::vec3 g = model.cloth.material.gravity;
  const float* mass = model.cloth.mass.data();
  // What the cloth holds before the step's change: the free vertices where they started, the kinematic ones
  // where the step put them.
  double now = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool free = !c.kinematic[i];
    const glm::vec3& v = free ? scratch.v_start[i] : c.velocity[i];
    const glm::vec3& x = free ? scratch.x_prev[i] : c.position[i];
    now += double(mass[i]) * (0.5 * double(glm::dot(v, v)) - double(glm::dot(g, x)));
  }
  // Only what the stretch gave up this step: where the step stored elastic energy instead (the released
  // patches sliding in compress the cloth next to them), a cloth slowed down would only store more.
  const double released = state.recoil.elastic_start - compute_energy(model.cloth, c.position.data(), c.velocity.data()).elastic;
  // Once no patch slides, nothing but the cloth itself, gravity and the colliders acts on it: the scale then
  // keeps the mean of the change (the cloth's momentum: a throw keeps it, `weft validate grasp`) and takes
  // only the recoil about it.
  bool sliding = false;
  for (const GraspRelease& r : state.release) sliding = sliding || r.active;
  glm::dvec3 mean(0.0);
  double free_mass = 0;
  if (!sliding)
    for (size_t i = 0; i < n; ++i)
      if (!c.kinematic[i]) {
        mean += double(mass[i]) * glm::dvec3(c.velocity[i] - scratch.v_start[i]);
        free_mass += mass[i];
      }
  const glm::vec3 shift = free_mass > 0 ? glm::vec3(mean / free_mass) : glm::vec3(0.f);
  const float s = recoil_scale(mass, c.kinematic.data(), scratch.v_start.data(), c.velocity.data(), n, g, h,
                               now - state.recoil.budget, released, shift);
  if (s >= 1.f) return 1.f;
  for (size_t i = 0; i < n; ++i) {
    if (c.kinematic[i]) continue;
    const glm::vec3 base = scratch.v_start[i] + shift;
    c.velocity[i] = base + s * (c.velocity[i] - base);
  }
  return s;
}

}  // namespace weft
