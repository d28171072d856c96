#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/force_field.h"
#include "sim/mesh_generators.h"
#include "sim/release_recoil.h"
#include "sim/world.h"
#include "sim/world_model.h"
#include "sim/world_scratch.h"
#include "sim/world_state.h"
#include "tests/sim/pose_samples.h"

using namespace weft;
using weft::test::at;
using weft::test::sample;

namespace {

const glm::vec3 kG(0.f, -9.81f, 0.f);
constexpr float kH = 1.f / 240.f;

// Kinetic energy gained from v0 to v less gravity's work over the solve's step (x = x0 + h solved), J.
double gain(const std::vector<float>& m, const std::vector<glm::vec3>& v0, const std::vector<glm::vec3>& v,
            const std::vector<glm::vec3>& solved) {
  double e = 0;
  for (size_t i = 0; i < m.size(); ++i)
    e += m[i] * (0.5 * (glm::dot(v[i], v[i]) - glm::dot(v0[i], v0[i])) - kH * glm::dot(kG, solved[i]));
  return e;
}

std::vector<glm::vec3> scaled(const std::vector<glm::vec3>& v0, const std::vector<glm::vec3>& v, float s) {
  std::vector<glm::vec3> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = v0[i] + s * (v[i] - v0[i]);
  return out;
}

}  // namespace

TEST_CASE("recoil_scale: gravity alone passes, a recoil is scaled to the budget, kinematic vertices ignored") {
  const std::vector<float> m = {0.01f, 0.02f, 0.03f};
  const std::vector<uint8_t> free(3, 0);
  const std::vector<glm::vec3> v0 = {{0.f, 0.f, 0.f}, {0.2f, -0.1f, 0.f}, {0.f, -0.3f, 0.1f}};
  std::vector<glm::vec3> fall(3);
  for (size_t i = 0; i < 3; ++i) fall[i] = v0[i] + kH * kG;
  CHECK(recoil_scale(m.data(), free.data(), v0.data(), fall.data(), 3, kG, kH, 0.0, 1.0) == 1.f);
  // The stretch snapping back: 1 m/s more on the first two, toward each other.
  std::vector<glm::vec3> snap = fall;
  snap[0].x += 1.f, snap[1].x -= 1.f;
  CHECK(gain(m, v0, snap, snap) > 1e-3);
  const float s = recoil_scale(m.data(), free.data(), v0.data(), snap.data(), 3, kG, kH, 0.0, 1.0);
  CHECK(s >= 0.f);
  CHECK(s < 1.f);
  CHECK(std::abs(gain(m, v0, scaled(v0, snap, s), snap)) < 1e-9);
  // An allowance (the cloth under its budget by 1 mJ) lets through 1 mJ of it.
  const float s2 = recoil_scale(m.data(), free.data(), v0.data(), snap.data(), 3, kG, kH, -1e-3, 1.0);
  CHECK(s2 > s);
  CHECK(std::abs(gain(m, v0, scaled(v0, snap, s2), snap) - 1e-3) < 1e-9);
  // Already over by more than the step can take: the change is cut to gravity's, no further.
  CHECK(recoil_scale(m.data(), free.data(), v0.data(), snap.data(), 3, kG, kH, 1.0, 1.0) == 0.f);
  // No more than max_taken: 1 mJ of the snap's gain is taken.
  const float s3 = recoil_scale(m.data(), free.data(), v0.data(), snap.data(), 3, kG, kH, 0.0, 1e-3);
  CHECK(std::abs(gain(m, v0, scaled(v0, snap, s3), snap) - (gain(m, v0, snap, snap) - 1e-3)) < 1e-9);
  CHECK(recoil_scale(m.data(), free.data(), v0.data(), snap.data(), 3, kG, kH, 0.0, 0.0) == 1.f);
  // A kinematic vertex's change is not the cloth's to scale.
  const std::vector<uint8_t> held = {1, 1, 0};
  CHECK(recoil_scale(m.data(), held.data(), v0.data(), snap.data(), 3, kG, kH, 0.0, 1.0) == 1.f);
}

namespace {

// An irregular 0.6 m sheet lying flat at y = 1 in free space, taken at its left and right edges by two hands
// that pull it 17 % wider (past what it gives: the grasps saturate near 9 %) and swing it sideways at
// 3 Hz, 4 cm each way; they let go at the end of a swing, the sheet bowed behind them like a drawn
// bowstring. Measures the kinetic energy after the release against the budget (the kinetic energy at the
// release plus the height lost since).
struct Recoil {
  double ratio = 0;   // the largest kinetic energy over the budget
  double excess = 0;  // the most it passed the budget by, J
};
Recoil swing_and_release() {
  Mesh mesh = make_irregular({.width = 0.6f, .height = 0.6f, .columns = 14, .rows = 14, .seed = 3});
  for (auto& p : mesh.positions) p = glm::vec3(p.x, 1.f, p.y);
  WorldConfig config;
  config.failsafe.enabled = false;  // the cloth must keep the budget without it
  World w(build_cloth_model(mesh, {}), config);
  auto nearest = [&](glm::vec3 p) {
    uint32_t best = 0;
    for (uint32_t i = 0; i < w.model().vertex_count(); ++i)
      if (glm::length(w.state().position[i] - p) < glm::length(w.state().position[best] - p)) best = i;
    return w.state().position[best];
  };
  const glm::vec3 l0 = nearest({0.f, 1.f, 0.3f}), r0 = nearest({0.6f, 1.f, 0.3f});
  const double h = w.time_step(), release = 0.9 + 1.0 / 12.0, end = release + 0.5;
  auto hand = [&](int k, double t) {
    const float s = float(std::clamp((t - 0.1) / 0.3, 0.0, 1.0));
    glm::vec3 p = (k == 0 ? l0 : r0) + glm::vec3((k == 0 ? -0.05f : 0.05f) * s * s * (3.f - 2.f * s), 0.f, 0.f);
    if (t > 0.4) p.z += 0.04f * float(std::sin(2.0 * 3.14159265358979 * 3.0 * (t - 0.4)));
    return p;
  };
  REQUIRE(w.grab(Hand::Left, at(l0), 0.04f) > 0);
  REQUIRE(w.grab(Hand::Right, at(r0), 0.04f) > 0);
  Energy at_release;
  bool released = false;
  Recoil r;
  for (double t = 0; t < end; t += h) {
    if (!released && t >= release) {
      at_release = compute_energy(w.model(), w.state().position.data(), w.state().velocity.data());
      w.release(Hand::Left);
      w.release(Hand::Right);
      released = true;
    }
    w.submit_pose(sample(Device::LeftHand, t, hand(0, t)));
    w.submit_pose(sample(Device::RightHand, t, hand(1, t)));
    w.step();
    if (!released) continue;
    const Energy e = compute_energy(w.model(), w.state().position.data(), w.state().velocity.data());
    const double budget = at_release.kinetic + at_release.gravity - e.gravity;
    r.ratio = std::max(r.ratio, e.kinetic / budget);
    r.excess = std::max(r.excess, e.kinetic - budget);
  }
  return r;
}

}  // namespace

// The bounds matrix's bar (tests/engine/bounds_matrix_test.cpp (c)): 1 % or 0.1 mJ over the budget. Without the
// recoil's window: 2.50 x the budget (2.6 mJ over).
TEST_CASE("release recoil: a sheet pulled wider and let go at the end of a swing is not thrown by its stretch") {
  const Recoil r = swing_and_release();
  MESSAGE("kinetic energy after the release up to " << r.ratio << " x the release's and the fall's ("
                                                    << 1e3 * r.excess << " mJ over)");
  CHECK((r.ratio <= 1.01 || r.excess <= 1e-4));
}

// A moving rigid box does work the cloth's budget does not hold (cube_drop.json: the box falling onto the
// cloth in a window after a release; scaled, the cloth under the box was slowed and 13 speed clamps followed,
// 7 without the window). The window waits, like it does for a hand that holds.
TEST_CASE("release recoil: the window does not apply while a rigid box moves") {
  Mesh mesh = make_irregular({.width = 0.4f, .height = 0.4f, .columns = 6, .rows = 6, .seed = 3});
  WorldModel model = make_world_model(build_cloth_model(mesh, {}), WorldConfig{});
  model.boxes.push_back(RigidBox{});
  WorldState state = make_initial_state(model);
  WorldScratch scratch;
  scratch.resize(model.cloth);
  open_release_recoil(model, state);
  CHECK(begin_release_recoil(model, state, scratch));  // the box at rest: the window applies
  state.boxes[0].linear_velocity = glm::vec3(0.f, -1.f, 0.f);
  CHECK_FALSE(begin_release_recoil(model, state, scratch));
  CHECK(state.recoil.rebase);  // the budget is taken again once the box stops
}
