#include "sim/grasp_validation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/mesh_generators.h"
#include "sim/world.h"

namespace weft {
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
  // Guard: CG measures 1.1e-7, approx 5.2e-6 (float rounding); 3e-5 is a few times that.
  const double guard = 3e-5;
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
  // Hands grab patches 2 cm apart with radius 5 cm (heavily overlapping), then move 5 cm apart each.
  auto run = [&base](bool left_first, double& deviation, float& speed) {
    World w(hanging_cloth(), base);
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

std::vector<GraspCheck> run_grasp_validation(const WorldConfig& base) {
  return {check_elastic_decay(base),    check_teleport_speed(base),   check_teleport_recovery(base),
          check_strain_limit(base),     check_drop_on_plane(base),    check_friction_static(base),
          check_friction_sliding(base), check_release_momentum(base), check_invalid_poses(base),
          check_overlapping_hands(base)};
}

}  // namespace weft
