#include "lab/grasp_validation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/scripted_manipulation.h"
#include "sim/force_field.h"
#include "sim/mesh_generators.h"
#include "sim/world.h"

namespace weft::lab {
namespace {

constexpr float kPi = 3.14159265358979f;

// A square n x n grid cloth of side `size`, placed by `place` (the grid lies in z = 0, corner at origin).
ClothModel grid_cloth(float size, uint32_t n, const glm::mat4& place, const Material& material = {}) {
  Mesh mesh = make_grid({.width = size, .height = size, .columns = n, .rows = n});
  transform_mesh(mesh, place);
  return build_cloth_model(mesh, material);
}
uint32_t grid_index(uint32_t n, uint32_t row, uint32_t col) { return row * (n + 1) + col; }

// A 0.5 m cloth hanging in the z = 0 plane, top edge at y = 1.5.
constexpr float kHangSize = 0.5f;
constexpr uint32_t kHangN = 20;
ClothModel hanging_cloth(const Material& material = {}) {
  return grid_cloth(kHangSize, kHangN, glm::translate(glm::mat4(1.f), glm::vec3(0.f, 1.f, 0.f)), material);
}
glm::vec3 top_corner(const World& w, bool right) {
  return w.state().position[grid_index(kHangN, kHangN, right ? kHangN : 0)];
}

// A flat cloth in the xz plane at height y, rotated by q about the origin afterwards.
ClothModel flat_cloth(float size, uint32_t n, float y, const glm::quat& q = glm::quat(1.f, 0.f, 0.f, 0.f)) {
  glm::mat4 place = glm::mat4_cast(q) * glm::translate(glm::mat4(1.f), glm::vec3(-size / 2, y, size / 2)) *
                    glm::rotate(glm::mat4(1.f), -kPi / 2, glm::vec3(1.f, 0.f, 0.f));
  return grid_cloth(size, n, place);
}

Pose at(const glm::vec3& p, const glm::quat& q = glm::quat(1.f, 0.f, 0.f, 0.f)) {
  Pose pose;
  pose.position = p;
  pose.orientation = q;
  return pose;
}
PoseSample sample(Device d, double t, const Pose& pose, bool valid = true) {
  PoseSample s;
  s.time = t;
  s.device = d;
  s.pose = pose;
  s.valid = valid;
  return s;
}
void submit(World& w, Device d, double t, const glm::vec3& p) { w.submit_pose(sample(d, t, at(p))); }
Collider plane(const glm::quat& q = glm::quat(1.f, 0.f, 0.f, 0.f), float mu = 0.5f) {
  Collider c;
  c.shape = ColliderShape::Plane;
  c.pose.orientation = q;
  c.mu_static = c.mu_kinetic = mu;
  return c;
}

glm::dvec3 momentum(const World& w) {
  glm::dvec3 p(0.0);
  for (size_t i = 0; i < w.model().vertex_count(); ++i) p += double(w.model().mass[i]) * glm::dvec3(w.state().velocity[i]);
  return p;
}
float max_speed(const World& w) {
  float s = 0.f;
  for (const glm::vec3& v : w.state().velocity) s = std::max(s, glm::length(v));
  return s;
}
glm::vec3 centroid(const World& w) {
  glm::dvec3 c(0.0);
  for (const glm::vec3& x : w.state().position) c += glm::dvec3(x);
  return glm::vec3(c / double(w.state().position.size()));
}
std::string fmt(const char* f, double a, double b = 0, double c = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c);
  return buf;
}

// The teleport scene: a hanging cloth held by both top corners; optionally the left hand's pose jumps
// 1 km along x for 3 ticks at tick 60. Returns the max speed seen and the final positions.
struct TeleportRun {
  float max_speed = 0;
  std::vector<glm::vec3> final_position;
  float cap = 0;
};
TeleportRun run_teleport(const WorldConfig& base, bool jump) {
  World w(hanging_cloth(), base);
  const glm::vec3 left = top_corner(w, false), right = top_corner(w, true);
  w.grab(Hand::Left, at(left), 0.04f);
  w.grab(Hand::Right, at(right), 0.04f);
  const int jump_tick = 60, ticks = jump_tick + 2 * 240;  // 2 s after the jump
  TeleportRun run;
  run.cap = w.config().interaction.elastic.max_speed;
  for (int k = 0; k < ticks; ++k) {
    const double t = w.state().time;
    const bool away = jump && k >= jump_tick && k < jump_tick + 3;
    submit(w, Device::LeftHand, t, left + (away ? glm::vec3(1000.f, 0.f, 0.f) : glm::vec3(0.f)));
    submit(w, Device::RightHand, t, right);
    w.step();
    run.max_speed = std::max(run.max_speed, max_speed(w));
  }
  run.final_position = w.state().position;
  return run;
}

}  // namespace

GraspCheck check_elastic_decay(const WorldConfig& base) {
  WorldConfig config = base;
  config.interaction.elastic.tau = 0.1f;
  World w(hanging_cloth(), config);
  const float tau = config.interaction.elastic.tau;
  const uint32_t v = grid_index(kHangN, kHangN / 2, kHangN / 2);
  const glm::vec3 target = w.state().position[v] + glm::vec3(0.f, 0.f, 0.1f);
  w.add_pin(v, target);
  const float d0 = glm::length(w.state().position[v] - target);
  double worst = 0;
  while (w.state().time < 3 * tau) {
    w.step();
    const double expected = std::exp(-w.state().time / tau);
    const double ratio = glm::length(w.state().position[v] - target) / d0;
    worst = std::max(worst, std::abs(ratio - expected) / expected);
  }
  return {"elastic_exp_decay", worst, 0.02, worst <= 0.02,
          "max relative deviation of |x - target| / d0 from exp(-t/tau) over 3 tau, tau = 0.1 s"};
}

GraspCheck check_teleport_speed(const WorldConfig& base) {
  const TeleportRun run = run_teleport(base, true);
  // held vertices move at exactly the cap; allow float rounding of |v|
  return {"teleport_max_speed", run.max_speed, run.cap, run.max_speed <= run.cap * (1.f + 1e-5f),
          "fastest vertex (m/s) while the left hand's target jumps 1 km for 3 ticks; bound: the speed cap"};
}

GraspCheck check_teleport_recovery(const WorldConfig& base) {
  const TeleportRun ref = run_teleport(base, false), jumped = run_teleport(base, true);
  double worst = 0;
  for (size_t i = 0; i < ref.final_position.size(); ++i)
    worst = std::max(worst, double(glm::length(ref.final_position[i] - jumped.final_position[i])));
  return {"teleport_recovery", worst, 0.01, worst <= 0.01,
          "max distance (m) 2 s after a 3-tick 1 km jump to the run without the jump"};
}

namespace {
// A very soft cloth (500 times below the default stretch stiffness, so that gravity alone stretches it
// well past the limit) hanging from two hands that pull it 4 % wider and shake it up and down (3 cm at
// 1 Hz); returns the max edge strain seen over the run.
float run_strain(const WorldConfig& base, bool limit) {
  Material soft;
  soft.stretch_stiffness = 1.f;
  soft.bend_stiffness = 0.02f;
  WorldConfig config = base;
  config.interaction.strain.enabled = limit;
  World w(hanging_cloth(soft), config);
  const glm::vec3 left = top_corner(w, false), right = top_corner(w, true);
  w.grab(Hand::Left, at(left), 0.03f);
  w.grab(Hand::Right, at(right), 0.03f);
  float worst = 0.f;
  for (int k = 0; k < 2 * 240; ++k) {
    const double t = w.state().time;
    const float spread = 0.01f * float(std::min(1.0, t / 0.5));  // each hand moves 1 cm out
    const glm::vec3 shake(0.f, 0.03f * std::sin(2 * kPi * float(t)), 0.f);
    submit(w, Device::LeftHand, t, left + glm::vec3(-spread, 0.f, 0.f) + shake);
    submit(w, Device::RightHand, t, right + glm::vec3(spread, 0.f, 0.f) + shake);
    w.step();
    worst = std::max(worst, max_edge_strain(w.model(), w.state().position.data()));
  }
  return worst;
}
}  // namespace

GraspCheck check_strain_limit(const WorldConfig& base) {
  const float limit = StrainLimitParams{}.max_strain;
  const float with = run_strain(base, true), without = run_strain(base, false);
  return {"strain_limit", with, limit + 0.01, with <= limit + 0.01f,
          fmt("max edge strain of a soft cloth stretched and shaken between two hands, h = 1/240 s "
              "(without limiting: %.3f)", without)};
}

GraspCheck check_drop_on_plane(const WorldConfig& base) {
  World w(flat_cloth(0.5f, 20, 0.3f), base);
  const float thickness = w.config().interaction.thickness;
  w.add_collider(plane());
  Collider ball;
  ball.shape = ColliderShape::Sphere;
  ball.pose.position = {0.15f, 0.08f, 0.15f};
  ball.radius = 0.08f;
  w.add_collider(ball);
  float lowest = std::numeric_limits<float>::infinity();
  for (int k = 0; k < 360; ++k) {
    w.step();
    for (const glm::vec3& x : w.state().position) lowest = std::min(lowest, x.y);
  }
  // Guard: the cloth rests on its contact layer (CG and approx measure lowest = thickness to 1e-7 m), so
  // sinking 1 mm into it is a regression long before the specification's -thickness is reached.
  const double guard = thickness - 0.001;
  return {"drop_on_plane", lowest, -thickness, lowest >= -thickness && lowest >= guard,
          fmt("lowest vertex height (m) over 1.5 s of a cloth falling onto a floor and a sphere; bound: -thickness; "
              "regression guard: >= %.4f (thickness - 1 mm)", guard),
          guard};
}

namespace {
// A flat cloth resting on a 20 degree slope; returns its centroid's travel after 1 s.
float run_slope(const WorldConfig& base, float mu) {
  const float angle = 20.f * kPi / 180.f;
  const glm::quat tilt = glm::angleAxis(angle, glm::vec3(0.f, 0.f, 1.f));
  WorldConfig config = base;
  World w(flat_cloth(0.3f, 12, config.interaction.thickness, tilt), config);
  w.add_collider(plane(tilt, mu));
  const glm::vec3 start = centroid(w);
  while (w.state().time < 1.0) w.step();
  return glm::length(centroid(w) - start);
}
constexpr float kSlope = 20.f * kPi / 180.f;
}  // namespace

GraspCheck check_friction_static(const WorldConfig& base) {
  const float drift = run_slope(base, 0.5f);
  return {"friction_static_slope", drift, 0.001, drift <= 0.001f,
          "centroid travel (m) in 1 s of a cloth resting on a 20 degree slope, mu = 0.5 (tan 20 = 0.36)"};
}

GraspCheck check_friction_sliding(const WorldConfig& base) {
  const float mu = 0.1f, travel = run_slope(base, mu);
  const float expected = 0.5f * 9.81f * (std::sin(kSlope) - mu * std::cos(kSlope));  // 1/2 a t^2, t = 1 s
  const float err = std::abs(travel / expected - 1.f);
  return {"friction_sliding_slope", err, 0.1, err <= 0.1f,
          fmt("relative error of the slide in 1 s on a 20 degree slope with mu = 0.1: %.3f m against "
              "1/2 g (sin - mu cos) t^2 = %.3f m", travel, expected)};
}

GraspCheck check_release_momentum(const WorldConfig& base) {
  World w(hanging_cloth(), base);
  const glm::vec3 left = top_corner(w, false), right = top_corner(w, true);
  w.grab(Hand::Left, at(left), 0.04f);
  w.grab(Hand::Right, at(right), 0.04f);
  const float amplitude = 0.15f, freq = 1.f;
  while (w.state().time < 1.0 - 1e-9) {  // one period: the hands pass the middle at full speed
    const double t = w.state().time;
    const glm::vec3 swing(0.f, 0.f, amplitude * std::sin(2 * kPi * freq * float(t)));
    submit(w, Device::LeftHand, t, left + swing);
    submit(w, Device::RightHand, t, right + swing);
    w.step();
  }
  const glm::dvec3 before = momentum(w);
  w.release(Hand::Left);
  w.release(Hand::Right);
  w.step();
  // what gravity added during the one step is not the release's doing
  const glm::dvec3 gravity_impulse = double(w.model().total_mass() * w.time_step()) * glm::dvec3(w.model().material.gravity);
  const double err = glm::length(momentum(w) - gravity_impulse - before) / glm::length(before);
  // Guard: CG and mg measure 1.1e-7 (float rounding). Approx does not solve its system, and the momentum
  // its Jacobi residual leaves depends on the held cloth's state at release: 5.2e-6, then 3.5e-5 with
  // straight tethers (sim/tether.h). 1e-4 is a few times that, far below what a release that capped
  // or threw the cloth's velocity would change (percents).
  const double guard = 1e-4;
  return {"release_momentum", err, 0.02, err <= 0.02 && err <= guard,
          fmt("relative change of linear momentum over the tick of release (gravity's impulse removed), "
              "hands at %.2f m/s; regression guard: <= %.0e", amplitude * 2 * kPi * freq, guard),
          guard};
}

namespace {
// Hand moving along x at 90 Hz, sim at 240 Hz; with `noise`, each valid sample is followed by five bad
// ones. Returns the final hash; counts what was rejected.
uint64_t run_pose_stream(const WorldConfig& base, bool noise, uint64_t& rejected, uint64_t& bad_sent, bool& unchanged) {
  World w(hanging_cloth(), base);
  const glm::vec3 left = top_corner(w, false);
  w.grab(Hand::Left, at(left), 0.04f);
  const double dt_pose = 1.0 / 90;
  int next = 0;
  unchanged = true;
  bad_sent = 0;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (int k = 0; k < 240; ++k) {
    while (next * dt_pose <= w.state().time + w.time_step()) {
      const double t = next * dt_pose;
      const glm::vec3 p = left + glm::vec3(0.2f * float(t), 0.f, 0.f);
      submit(w, Device::LeftHand, t, p);
      if (noise) {
        const uint64_t hash = w.state_hash();
        w.submit_pose(sample(Device::LeftHand, t, at({nan, 0.f, 0.f})));
        w.submit_pose(sample(Device::LeftHand, t, at({0.f, inf, 0.f})));
        w.submit_pose(sample(Device::LeftHand, t, at(p, glm::quat(1.5f, 0.f, 0.f, 0.f))));
        w.submit_pose(sample(Device::LeftHand, t - 0.5, at(p)));
        w.submit_pose(sample(Device::LeftHand, t, at(p + 1.f), false));
        bad_sent += 5;
        unchanged = unchanged && hash == w.state_hash();
      }
      ++next;
    }
    w.step();
  }
  rejected = w.invalid_pose_count();
  return w.state_hash();
}
}  // namespace

GraspCheck check_invalid_poses(const WorldConfig& base) {
  uint64_t rejected_clean = 0, rejected = 0, sent_clean = 0, sent = 0;
  bool unchanged_clean = true, unchanged = true;
  const uint64_t clean = run_pose_stream(base, false, rejected_clean, sent_clean, unchanged_clean);
  const uint64_t noisy = run_pose_stream(base, true, rejected, sent, unchanged);
  const bool same = clean == noisy && unchanged && rejected_clean == 0;
  return {"invalid_poses", double(rejected), double(sent), same && rejected == sent && sent > 0,
          same ? "bad samples rejected and counted (value) against bad samples sent (bound); state untouched by "
                 "each and the final state bit-identical to the clean stream's"
               : "bad samples changed the state"};
}

GraspCheck check_overlapping_hands(const WorldConfig& base) {
  // Hands grab patches 2.5 cm apart with radius 5 cm (heavily overlapping), then move 5 cm apart each. That
  // tears the cloth between the patches, which saturating grasps refuse (check_pull_near_pin); here the
  // weight averaging alone is checked, so saturation is off.
  WorldConfig config = base;
  config.interaction.saturation_strain = INFINITY;
  auto run = [&config](bool left_first, double& deviation, float& speed) {
    World w(hanging_cloth(), config);
    const glm::vec3 centre = w.state().position[grid_index(kHangN, kHangN, kHangN / 2)];
    const glm::vec3 pl = centre, pr = centre + glm::vec3(0.025f, 0.f, 0.f);
    if (left_first) {
      w.grab(Hand::Left, at(pl), 0.05f);
      w.grab(Hand::Right, at(pr), 0.05f);
    } else {
      w.grab(Hand::Right, at(pr), 0.05f);
      w.grab(Hand::Left, at(pl), 0.05f);
    }
    speed = 0.f;
    glm::vec3 ql = pl, qr = pr;
    while (w.state().time < 1.0) {
      const double t = w.state().time;
      const float s = 0.05f * float(std::min(1.0, t / 0.5));
      ql = pl - glm::vec3(s, 0.f, 0.f);
      qr = pr + glm::vec3(s, 0.f, 0.f);
      submit(w, Device::LeftHand, t, ql);
      submit(w, Device::RightHand, t, qr);
      w.step();
      speed = std::max(speed, max_speed(w));
    }
    // every vertex held by both hands with full total weight sits on the weight-averaged target
    const ElasticSet& L = w.held_vertices(Device::LeftHand);
    const ElasticSet& R = w.held_vertices(Device::RightHand);
    deviation = 0;
    size_t shared = 0;
    for (size_t a = 0; a < L.size(); ++a)
      for (size_t b = 0; b < R.size(); ++b) {
        if (L.vertex[a] != R.vertex[b] || L.weight[a] + R.weight[b] < 1.f) continue;
        ++shared;
        const glm::vec3 target = (L.weight[a] * (ql + L.offset[a]) + R.weight[b] * (qr + R.offset[b])) /
                                 (L.weight[a] + R.weight[b]);
        deviation = std::max(deviation, double(glm::length(w.state().position[L.vertex[a]] - target)));
      }
    if (shared == 0) deviation = INFINITY;
    return w.state_hash();
  };
  double dev1 = 0, dev2 = 0;
  float speed1 = 0, speed2 = 0;
  const uint64_t h1 = run(true, dev1, speed1), h2 = run(false, dev2, speed2);
  const double dev = std::max(dev1, dev2);
  // Guard: both solvers measure 6e-8 m, half a float step at 1.5 m; 5e-7 m is a few float steps.
  const double guard = 5e-7;
  const bool pass = dev <= 1e-3 && dev <= guard && h1 == h2 && speed1 <= base.interaction.elastic.max_speed;
  return {"overlapping_hands", dev, 1e-3, pass,
          fmt("max distance (m) of co-held vertices from their weight-averaged target (regression guard: <= %.0e); "
              "states after the two grab orders differ in %.0f hashes; max speed %.3f m/s", guard, h1 == h2 ? 0.0 : 1.0,
              speed1),
          guard};
}

// ---------------------------------------------------------------- issue 16: hostile input, hostile scenes
namespace {

float ease01(double t0, double t1, double t) {
  const float s = float(std::clamp((t - t0) / (t1 - t0), 0.0, 1.0));
  return s * s * (3.f - 2.f * s);
}
// xorshift64*: a small reproducible generator for the jitter and spike scenarios (seed != 0).
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed * 2654435761u + 0x9E3779B97F4A7C15ull) {}
  double uniform() {  // [0, 1)
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return double((state * 2685821657736338717ull) >> 11) * 0x1.0p-53;
  }
  glm::vec3 in_ball(float r) {
    for (;;) {
      const glm::vec3 p(float(2 * uniform() - 1), float(2 * uniform() - 1), float(2 * uniform() - 1));
      if (glm::dot(p, p) <= 1.f) return r * p;
    }
  }
};
double kinetic_energy(const World& w) {
  double e = 0;
  for (size_t i = 0; i < w.model().vertex_count(); ++i)
    e += 0.5 * double(w.model().mass[i]) * double(glm::dot(w.state().velocity[i], w.state().velocity[i]));
  return e;
}

// A 0.15 m x 0.6 m scarf (6 x 24 quads, 2.5 cm edges, 13.5 g) pinned at one corner, at (0, 1.6, 0).
constexpr uint32_t kScarfCols = 6, kScarfRows = 24;
constexpr float kPinHeight = 1.6f;
ClothModel pinned_scarf(bool horizontal) {
  Mesh mesh = make_grid({.width = 0.15f, .height = 0.6f, .columns = kScarfCols, .rows = kScarfRows});
  const uint32_t pin = kScarfRows * (kScarfCols + 1);  // top-left corner at (0, 0.6, 0) in the grid
  glm::mat4 place = glm::translate(glm::mat4(1.f), glm::vec3(0.f, kPinHeight - 0.6f, 0.f));
  if (horizontal)  // the grid's y axis along -z: flat at the pin's height, the pin at (0, 1.6, 0)
    place = glm::translate(glm::mat4(1.f), glm::vec3(0.f, kPinHeight, -0.6f)) *
            glm::rotate(glm::mat4(1.f), -kPi / 2, glm::vec3(1.f, 0.f, 0.f));
  transform_mesh(mesh, place);
  return build_cloth_model(mesh, Material{}, {pin});
}

}  // namespace

PullNearPinRun run_pull_near_pin(const WorldConfig& base) {
  PullNearPinRun run;
  const double pull_end = 0.5, release_at = 0.8, end = release_at + 2.0;
  {
    World w(pinned_scarf(false), base);
    const uint32_t next_to_pin = kScarfRows * (kScarfCols + 1) + 1;  // one edge (2.5 cm) from the pin
    const glm::vec3 start = w.state().position[next_to_pin];
    w.grab(Hand::Right, at(start), 0.02f);
    bool released = false;
    while (w.state().time < end) {
      const double t = w.state().time;
      if (!released && t >= release_at) {
        w.release(Hand::Right);
        released = true;
      }
      submit(w, Device::RightHand, t, start + glm::vec3(0.f, 0.f, 0.5f) * ease01(0.0, pull_end, t));
      w.step();
      run.max_strain = std::max(run.max_strain, max_edge_strain(w.model(), w.state().position.data()));
      if (released) {
        run.peak_kinetic = std::max(run.peak_kinetic, kinetic_energy(w));
        run.peak_speed = std::max(run.peak_speed, max_speed(w));
      }
    }
  }
  World ref(pinned_scarf(true), base);
  while (ref.state().time < end - release_at) {
    ref.step();
    run.reference_kinetic = std::max(run.reference_kinetic, kinetic_energy(ref));
  }
  return run;
}

GraspCheck check_pull_near_pin_strain(const PullNearPinRun& run) {
  // The bar is the 10 % limit itself (1e-5 for float rounding of l / l0).
  const float bound = StrainLimitParams{}.max_strain + 1e-5f;
  return {"pull_near_pin_strain", run.max_strain, bound, run.max_strain <= bound,
          "max edge strain while a hand holding the vertex next to a scarf's pin pulls 0.5 m away, then lets go; "
          "bound: the 10 % limit"};
}
GraspCheck check_pull_near_pin_energy(const PullNearPinRun& run) {
  const double ratio = run.peak_kinetic / run.reference_kinetic;
  return {"pull_near_pin_energy", ratio, 2.0, ratio <= 2.0,
          fmt("peak kinetic energy after the release (%.4f J) over that of the same scarf dropped flat from its "
              "pin's height (%.4f J)", run.peak_kinetic, run.reference_kinetic)};
}
GraspCheck check_pull_near_pin_speed(const PullNearPinRun& run) {
  return {"pull_near_pin_speed", run.peak_speed, 5.0, run.peak_speed <= 5.f,
          "fastest vertex (m/s) in the 2 s after the scarf pulled against its pin is let go"};
}

namespace {
// The table of assets/scenes/table.json: a box 1 m x 0.75 m x 0.6 m on a floor, top at y = 0.75.
constexpr float kTableTop = 0.75f;
Collider table_box() {
  Collider c;
  c.shape = ColliderShape::Box;
  c.pose.position = {0.f, 0.375f, 0.f};
  c.half_extents = {0.5f, 0.375f, 0.3f};
  c.mu_static = 0.4f;
  c.mu_kinetic = 0.3f;
  return c;
}
bool over_top(const glm::vec3& x) { return std::abs(x.x) <= 0.5f && std::abs(x.z) <= 0.3f; }
}  // namespace

TableDropRun run_table_drop(const WorldConfig& base, float drop_speed, double settle_s) {
  constexpr uint32_t n = 16;
  World w(flat_cloth(0.4f, n, kTableTop + 0.3f), base);
  w.add_collider(plane());
  w.add_collider(table_box());
  TableDropRun run;
  run.thickness = w.config().interaction.thickness;
  const glm::vec3 left = w.state().position[grid_index(n, 0, 0)], right = w.state().position[grid_index(n, 0, n)];
  w.grab(Hand::Left, at(left), 0.03f);
  w.grab(Hand::Right, at(right), 0.03f);
  const double release_at = 0.2, end = release_at + settle_s;
  bool released = false;
  auto energy = [&w] {
    const Energy e = compute_energy(w.model(), w.state().position.data(), w.state().velocity.data());
    return e.kinetic + e.gravity;
  };
  while (w.state().time < end) {
    const double t = w.state().time;
    if (!released && t >= release_at) {
      w.release(Hand::Left);
      w.release(Hand::Right);
      w.add_velocity(glm::vec3(0.f, -drop_speed, 0.f));
      released = true;
      run.energy_at_release = energy();
    }
    if (!released) {
      submit(w, Device::LeftHand, t, left);
      submit(w, Device::RightHand, t, right);
    }
    w.step();
    for (const glm::vec3& x : w.state().position)
      if (over_top(x) && x.y > kTableTop - 0.05f) run.lowest_below_top = std::max(run.lowest_below_top, kTableTop - x.y);
    if (released) run.max_energy_rise = std::max(run.max_energy_rise, energy() - run.energy_at_release);
  }
  run.energy_settled = energy();
  run.speed_settled = max_speed(w);
  double ke = 0;
  for (const glm::vec3& v : w.state().velocity) ke += double(glm::dot(v, v));
  run.rms_speed_settled = float(std::sqrt(ke / double(w.state().velocity.size())));
  run.height_settled = -INFINITY;
  for (const glm::vec3& x : w.state().position) run.height_settled = std::max(run.height_settled, x.y - kTableTop);
  return run;
}

GraspCheck check_table_drop_penetration(const TableDropRun& run) {
  return {"table_drop_penetration", run.lowest_below_top, run.thickness, run.lowest_below_top <= run.thickness,
          "deepest vertex (m) below the table top over the run of a cloth let go 0.3 m above it; bound: thickness"};
}
GraspCheck check_table_drop_energy(const TableDropRun& run) {
  const double rise = run.max_energy_rise;
  const bool pass = run.energy_settled <= run.energy_at_release && rise <= 1e-4;
  return {"table_drop_energy", rise, 1e-4, pass,
          fmt("largest rise (J) of kinetic + gravity energy above its value at release (%.4f J; 2 s later %.4f J)",
              run.energy_at_release, run.energy_settled)};
}
GraspCheck check_table_drop_rest(const TableDropRun& run) {
  const bool pass = run.rms_speed_settled <= 0.01f && run.height_settled <= 0.02f;
  return {"table_drop_rest", run.rms_speed_settled, 0.01, pass,
          fmt("RMS vertex speed (m/s) 2 s after release (fastest vertex %.3f m/s); highest vertex %.4f m above the "
              "top (bound 0.02 m)", run.speed_settled, run.height_settled)};
}

GraspCheck check_thin_plate_swept(const WorldConfig& base) {
  // A 1 cm plate; the cloth arrives at 15 m/s, 6 cm per tick at 240 Hz: without a swept test a vertex
  // steps over the plate in one tick.
  World w(flat_cloth(0.3f, 12, 0.6f), base);
  Collider plate;
  plate.shape = ColliderShape::Box;
  plate.pose.position = {0.f, 0.5f, 0.f};
  plate.half_extents = {0.3f, 0.005f, 0.3f};
  w.add_collider(plate);
  w.add_velocity(glm::vec3(0.f, -15.f, 0.f));  // from rest
  int through = 0;
  while (w.state().time < 0.5) {
    w.step();
    for (const glm::vec3& x : w.state().position)
      through += std::abs(x.x) < 0.3f && std::abs(x.z) < 0.3f && x.y < 0.5f;
  }
  return {"thin_plate_swept", double(through), 0, through == 0,
          "vertex-ticks found below the top of a 1 cm plate hit at 15 m/s (over its footprint)"};
}

GraspCheck check_grab_jitter(const WorldConfig& base) {
  World w(hanging_cloth(), base);
  const float radius = 0.04f;
  const glm::vec3 vertex = w.state().position[grid_index(kHangN, kHangN / 2, kHangN / 2)];
  const int seeds = 200;
  // A: the hand closes 1 cm outside the radius (inside the fallback catch radius).
  // B: it hovers for 0.1 s at the catch radius itself (jittering across it) and closes there: the
  //    hysteresis decides, not the last sample's jitter.
  int caught[2] = {0, 0};
  const float catch_r = catch_radius(radius, w.config().interaction.grasp);
  for (int scenario = 0; scenario < 2; ++scenario) {
    const glm::vec3 hand = vertex + glm::vec3(0.f, 0.f, scenario == 0 ? radius + 0.01f : catch_r);
    for (int seed = 1; seed <= seeds; ++seed) {
      Rng rng{uint64_t(seed + 1000 * scenario)};
      w.reset();
      if (scenario == 1)
        for (int k = 0; k < 10; ++k) submit(w, Device::LeftHand, (k - 10) / 90.0, hand + rng.in_ball(0.005f));
      caught[scenario] += w.grab(Hand::Left, at(hand + rng.in_ball(0.005f)), radius) > 0;
      w.release(Hand::Left);
    }
  }
  auto agree = [&](int c) { return double(std::max(c, seeds - c)) / seeds; };
  const double same = std::min(agree(caught[0]), agree(caught[1]));
  return {"grab_jitter", same, 0.99, same >= 0.99,
          fmt("fraction of 200 jittered (5 mm) closes that agree, worst of: 1 cm outside the radius (%.0f caught), "
              "hovering at the catch radius (%.0f caught)", double(caught[0]), double(caught[1]))};
}

GraspCheck check_hand_twist(const WorldConfig& base) {
  float worst = 0.f;
  const glm::vec3 axes[3] = {{1.f, 0.f, 0.f}, {0.f, 1.f, 0.f}, {0.f, 0.f, 1.f}};
  for (const glm::vec3& axis : axes) {
    World w(hanging_cloth(), base);
    const glm::vec3 left = top_corner(w, false);
    const glm::vec3 right = top_corner(w, true) + glm::vec3(0.f, 0.f, 0.05f);  // closes 1 cm outside the radius
    w.grab(Hand::Left, at(left), 0.04f);
    if (w.grab(Hand::Right, at(right), 0.04f) == 0) return {"hand_twist", INFINITY, 3.0, false, "the grab missed"};
    const double twist_start = 0.5, twist_end = 0.6, end = 1.2;
    while (w.state().time < end) {
      const double t = w.state().time;
      const glm::quat q = glm::angleAxis(kPi / 2 * ease01(twist_start, twist_end, t), axis);
      submit(w, Device::LeftHand, t, left);
      w.submit_pose(sample(Device::RightHand, t, at(right, q)));
      w.step();
      if (t >= twist_start) worst = std::max(worst, max_speed(w));
    }
  }
  return {"hand_twist", worst, 3.0, worst <= 3.f,
          "fastest vertex (m/s) while one of two hands holding a hanging cloth turns 90 degrees in 0.1 s (about x, "
          "y and z in turn) and for 0.6 s after"};
}

GraspCheck check_spikes_stay_on_stage(const WorldConfig& base) {
  World w(hanging_cloth(), base);
  const StageBounds stage = w.config().interaction.safety.stage;
  const glm::vec3 left = top_corner(w, false), right = top_corner(w, true);
  w.grab(Hand::Left, at(left), 0.04f);
  w.grab(Hand::Right, at(right), 0.04f);
  Rng rng(16);
  const double dt_pose = 1.0 / 90;
  int next = 0, spikes = 0;
  float outside = 0.f, fastest = 0.f;
  while (w.state().time < 3.0) {
    while (next * dt_pose <= w.state().time + w.time_step()) {
      const double t = next * dt_pose;
      const glm::vec3 sway(0.05f * std::sin(kPi * float(t)), 0.f, 0.f);
      for (Device d : {Device::LeftHand, Device::RightHand}) {
        glm::vec3 p = (d == Device::LeftHand ? left : right) + sway;
        if (rng.uniform() < 0.02) {  // a 1 km spike in a random direction; no conditioning removes it
          p += 1000.f * glm::normalize(rng.in_ball(1.f) + glm::vec3(1e-6f));
          ++spikes;
        }
        submit(w, d, t, p);
      }
      ++next;
    }
    w.step();
    fastest = std::max(fastest, max_speed(w));
    for (const glm::vec3& x : w.state().position)
      outside = std::max(outside, glm::length(x - stage.clamp(x)));
  }
  return {"spikes_stay_on_stage", outside, 0.0, outside == 0.f,
          fmt("farthest vertex (m) outside the stage bounds while %.0f of the hands' samples jump 1 km (2 %%, "
              "no conditioning); fastest vertex %.2f m/s", double(spikes), fastest)};
}

GraspCheck check_two_hand_demo_strain(const WorldConfig& base) {
  // The built-in demo's cloth: 0.8 m, 24 quads, 1 cm over the table top; its near corners are grid row 0.
  constexpr uint32_t n = 24;
  World w(flat_cloth(0.8f, n, kTableTop + 0.01f), base);
  w.add_collider(plane());
  w.add_collider(table_box());
  // The demo's own motion and grab and release times (engine/scripted_manipulation.h), fed to the World
  // here instead of through the runtime.
  const TwoHandScript script(w.state().position[grid_index(n, 0, 0)], w.state().position[grid_index(n, 0, n)]);
  bool grabbed = false, released = false;
  float worst_held = 0.f;
  while (w.state().time < TwoHandScript::kEnd + 1.5) {
    const double t = w.state().time;
    submit(w, Device::LeftHand, t, script.hand_position(0, t));
    submit(w, Device::RightHand, t, script.hand_position(1, t));
    if (!grabbed && t >= TwoHandScript::kGrabTime) {
      grabbed = true;
      w.grab(Hand::Left, at(script.hand_position(0, t)), 0.05f);
      w.grab(Hand::Right, at(script.hand_position(1, t)), 0.05f);
    }
    if (!released && t >= TwoHandScript::kShakeEnd) {
      released = true;
      w.release(Hand::Left);
      w.release(Hand::Right);
    }
    w.step();
    if (grabbed && !released) worst_held = std::max(worst_held, max_edge_strain(w.model(), w.state().position.data()));
  }
  const float end = max_edge_strain(w.model(), w.state().position.data());
  const float bound = StrainLimitParams{}.max_strain + 1e-5f;  // the 10 % limit (float rounding of l / l0)
  return {"two_hand_demo_strain", end, bound, end <= bound,
          fmt("max edge strain 1.5 s after the scripted two-hand demo's motion (hands pull the corners 0.2 m past "
              "the cloth's width); while held: %.3f", worst_held)};
}

std::vector<GraspCheck> run_grasp_validation(const WorldConfig& base) {
  std::vector<GraspCheck> checks = {
      check_elastic_decay(base),    check_teleport_speed(base),   check_teleport_recovery(base),
      check_strain_limit(base),     check_drop_on_plane(base),    check_friction_static(base),
      check_friction_sliding(base), check_release_momentum(base), check_invalid_poses(base),
      check_overlapping_hands(base)};
  const PullNearPinRun pull = run_pull_near_pin(base);
  const TableDropRun drop = run_table_drop(base);
  for (GraspCheck c : {check_pull_near_pin_strain(pull), check_pull_near_pin_energy(pull),
                       check_pull_near_pin_speed(pull), check_table_drop_penetration(drop),
                       check_table_drop_energy(drop), check_table_drop_rest(drop), check_thin_plate_swept(base),
                       check_grab_jitter(base), check_hand_twist(base), check_spikes_stay_on_stage(base),
                       check_two_hand_demo_strain(base)})
    checks.push_back(c);
  return checks;
}

}  // namespace weft::lab
