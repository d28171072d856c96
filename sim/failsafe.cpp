#include "sim/failsafe.h"

#include <algorithm>
#include <cmath>

namespace weft {
namespace {

// How fast the fastest point of a collider or box moves: its centre's speed plus its spin times its reach.
float collider_speed(const Collider& c) {
  const float reach = std::max({c.radius + c.half_length, glm::length(c.half_extents)});
  return glm::length(c.linear_velocity) + glm::length(c.angular_velocity) * reach;
}

}  // namespace

FailsafeBaseline failsafe_baseline(const WorldModel& model, const WorldState& state, const Energy* cached) {
  FailsafeBaseline b;
  const ClothModel& m = model.cloth;
  const ClothState& c = state.cloth;
  const float g = glm::length(m.material.gravity);
  const glm::vec3 up = g > 0.f ? -m.material.gravity / g : glm::vec3(0.f, 1.f, 0.f);
  // The fastest vertex falling from the highest one's height: its speed then bounds every vertex's
  // (its rise is in its speed already).
  float fastest2 = 0.f, top = -INFINITY;
  for (size_t i = 0; i < m.vertex_count(); ++i) {
    fastest2 = std::max(fastest2, glm::dot(c.velocity[i], c.velocity[i]));
    top = std::max(top, glm::dot(c.position[i], up));
  }
  b.fastest = std::sqrt(fastest2);
  b.top = top;

  // Open seams drive their vertices (sim/seam.h); sewn ones only take energy out, like a passive cloth.
  bool open_seam = false;
  for (uint8_t s : state.seams.sewn) open_seam = open_seam || !s;
  bool driven = !model.pins.vertex.empty() || open_seam || !state.boxes.empty() ||
                m.material.wind != glm::vec3(0.f) || !c.hinge_rest_angle.empty() || !c.plastic_strain.empty();
  for (const ElasticSet& set : state.held) driven = driven || !set.vertex.empty();
  for (const Collider& k : state.colliders) driven = driven || (k.follows && !k.parked) || collider_speed(k) > 0.f;
  b.passive = !driven;
  if (b.passive) b.energy = cached ? *cached : compute_energy(m, c.position.data(), c.velocity.data());
  return b;
}

void failsafe_after_solve(const WorldModel& model, const WorldState& state, FailsafeBaseline& baseline) {
  if (baseline.passive)
    baseline.solved = compute_energy(model.cloth, state.cloth.position.data(), state.cloth.velocity.data());
}

void apply_failsafe(const WorldModel& model, const FailsafeConfig& config, const FailsafeBaseline& baseline,
                    float h, WorldState& state, FailsafeStats& stats) {
  stats = {};
  const ClothModel& m = model.cloth;
  ClothState& c = state.cloth;
  const size_t n = m.vertex_count();
  const float g = glm::length(m.material.gravity);
  const glm::vec3 up = g > 0.f ? -m.material.gravity / g : glm::vec3(0.f, 1.f, 0.f);

  // The drivers: held and pinned vertices move at their imposed velocity; colliders and boxes at theirs.
  float drive = 0.f;
  for (size_t i = 0; i < n; ++i)
    if (c.kinematic[i]) drive = std::max(drive, glm::length(c.velocity[i]));
  for (const Collider& k : state.colliders) drive = std::max(drive, collider_speed(k));
  for (const RigidBox& b : state.boxes) {
    const float reach = glm::length(b.half_extents);
    drive = std::max(drive, glm::length(b.linear_velocity) + glm::length(b.angular_velocity) * reach);
  }
  const float driven_bound = config.drive_margin * drive;
  for (size_t i = 0; i < n; ++i) {
    if (c.kinematic[i] || m.inv_mass[i] == 0.f) continue;
    const float fall = std::max(0.f, baseline.top - glm::dot(c.position[i], up));
    const float free_bound = std::sqrt(baseline.fastest * baseline.fastest + 2.f * g * fall) + g * h;
    const float bound = std::max(driven_bound, free_bound) + config.speed_slack;
    const float speed2 = glm::dot(c.velocity[i], c.velocity[i]);
    if (!(speed2 <= bound * bound)) {  // NaN too
      c.velocity[i] = std::isfinite(speed2) ? c.velocity[i] * (bound / std::sqrt(speed2)) : glm::vec3(0.f);
      ++stats.speed_clamps;
    }
  }

  if (!baseline.passive) return;
  Energy end = compute_energy(m, c.position.data(), c.velocity.data());
  const Energy &start = baseline.energy, &solved = baseline.solved;
  const double tolerance =
      std::max(double(config.energy_floor), config.energy_tolerance * (start.kinetic + start.elastic));
  const double excess = std::max(0.0, solved.total() - start.total() - tolerance) +
                        std::max(0.0, end.kinetic - solved.kinetic - tolerance);
  if (excess > 0.0) {
    // Taken back from the free vertices' motion, evenly (one factor): the shape the step reached stays.
    double free_kinetic = 0.0;
    for (size_t i = 0; i < n; ++i)
      if (!c.kinematic[i]) free_kinetic += 0.5 * m.mass[i] * double(glm::dot(c.velocity[i], c.velocity[i]));
    const double keep = free_kinetic > 0.0 ? std::max(0.0, free_kinetic - excess) / free_kinetic : 1.0;
    const float scale = float(std::sqrt(keep));
    for (size_t i = 0; i < n; ++i)
      if (!c.kinematic[i]) c.velocity[i] *= scale;
    stats.energy_clamps = 1;
    stats.energy_taken_j = free_kinetic * (1.0 - double(scale) * double(scale));
    end.kinetic -= stats.energy_taken_j;
  }
  stats.energy_known = true;
  stats.energy = end;
}

}  // namespace weft
