#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "sim/mesh_generators.h"
#include "sim/world.h"

using namespace weft;

namespace {

// A 0.5 m square lying flat at the contact thickness above a floor plane tilted by `tilt` radians about z.
World cloth_on_floor(float tilt, float mu_static, float mu_kinetic, float stretch = 1.f,
                     IntegratorKind solver = IntegratorKind::Multigrid) {
  Mesh mesh = make_grid({.width = 0.5f, .height = 0.5f, .columns = 20, .rows = 20});
  WorldConfig config;
  config.integrator = solver;
  const float t = config.interaction.thickness;
  const glm::quat q = glm::angleAxis(tilt, glm::vec3(0, 0, 1));
  for (auto& p : mesh.positions) p = q * glm::vec3(stretch * (p.x - 0.25f), t, stretch * (p.y - 0.25f));
  World w(build_cloth_model(mesh, Material{}), config);
  Collider floor;
  floor.pose.orientation = q;
  floor.mu_static = mu_static;
  floor.mu_kinetic = mu_kinetic;
  w.add_collider(floor);
  return w;
}

float rms_speed(const World& w) {
  double s = 0;
  for (const glm::vec3& v : w.state().velocity) s += glm::dot(v, v);
  return float(std::sqrt(s / w.state().velocity.size()));
}

}  // namespace

TEST_CASE("contact filter: a cloth resting on the floor is held by the solve, pushing with its weight") {
  World w = cloth_on_floor(0.f, 0.6f, 0.5f);
  for (int k = 0; k < 240; ++k) w.step();
  const ContactFilter& f = w.state().contact_filter;
  REQUIRE(f.size() == w.state().position.size());  // every vertex rests on the floor
  const float h = float(w.time_step()), g = 9.81f;
  float jn_min = 1e9f, jn_max = -1e9f;
  for (size_t k = 0; k < f.size(); ++k) {
    jn_min = std::min(jn_min, f.impulse[k]);
    jn_max = std::max(jn_max, f.impulse[k]);
  }
  MESSAGE("impulse per unit mass " << jn_min << " .. " << jn_max << " (g h " << g * h << ")");
  CHECK(jn_min == doctest::Approx(g * h).epsilon(0.05));
  CHECK(jn_max == doctest::Approx(g * h).epsilon(0.05));
  CHECK(rms_speed(w) < 1e-4f);
  float lowest = 1e9f;
  for (const glm::vec3& p : w.state().position) lowest = std::min(lowest, p.y);
  CHECK(lowest > 0.99f * WorldConfig{}.interaction.thickness);
}

TEST_CASE("contact filter: static friction holds a cloth on a slope under its angle, and lets it slide above") {
  // tan 20 deg = 0.36 < mu_s 0.5: held; tan 35 deg = 0.70 > mu_s: slides, and keeps accelerating at
  // g (sin - mu_k cos).
  for (const IntegratorKind solver : {IntegratorKind::Multigrid})
  for (const float deg : {20.f, 35.f}) {
    World w = cloth_on_floor(glm::radians(deg), 0.5f, 0.4f, 1.f, solver);
    for (int k = 0; k < 240; ++k) w.step();
    glm::vec3 mean(0.f);
    for (const glm::vec3& v : w.state().velocity) mean += v;
    mean /= float(w.state().velocity.size());
    const float a = glm::radians(deg);
    const float expected = deg < 30.f ? 0.f : 9.81f * (std::sin(a) - 0.4f * std::cos(a)) * 1.f;
    MESSAGE(int(solver) << ": " << deg << " deg: mean speed after 1 s " << glm::length(mean) << " m/s, expected " << expected);
    if (deg < 30.f) CHECK(glm::length(mean) < 1e-3f);  // static friction, regularised: creeps under 1 mm/s
    else CHECK(glm::length(mean) == doctest::Approx(expected).epsilon(0.06));
  }
}

TEST_CASE("contact filter: a cloth stretched on the floor relaxes instead of being frozen by friction") {
  World w = cloth_on_floor(0.f, 0.6f, 0.5f, 1.08f);
  for (int k = 0; k < 480; ++k) w.step();
  const ClothModel& m = w.model();
  float worst = 0.f;
  for (size_t e = 0; e < m.edge_count; ++e) {
    const float len = glm::distance(w.state().position[m.link[e][0]], w.state().position[m.link[e][1]]);
    worst = std::max(worst, len / m.rest_length[e] - 1.f);
  }
  MESSAGE("worst edge strain after 2 s " << worst << ", rms speed " << rms_speed(w));
  CHECK(worst < 0.02f);
  CHECK(rms_speed(w) < 0.01f);
}

TEST_CASE("contact filter: a vertex between a hand's palm and the floor is kept on the floor, not moved with the palm") {
  // The palm (a sphere following the left hand, coming down at 0.6 m/s) is nearer than the floor. Kept moving
  // with the palm into the floor, the built-in table cloth's corner drew the whole cloth along (705 clamps).
  const float thickness = 0.004f;
  Collider palm;
  palm.shape = ColliderShape::Sphere;
  palm.radius = 0.04f;
  palm.follows = Device::LeftHand;
  palm.pose.position = glm::vec3(0.f, 0.003f + 0.04f + 0.001f, 0.f);
  palm.linear_velocity = glm::vec3(0.f, -0.6f, 0.f);
  Collider floor;  // the plane y = 0
  const Collider colliders[] = {palm, floor};
  const glm::vec3 x(0.f, 0.003f, 0.f), v(0.f);
  const float mass = 1e-4f;
  const uint8_t kinematic = 0;
  ContactFilter last, out;
  last.resize(1);
  out.resize(1);
  find_resting_contacts(colliders, 2, thickness, glm::vec3(0.f, -9.81f, 0.f), 1.f / 240.f, &mass, &kinematic, &x, &v,
                        last, out);
  REQUIRE(out.size() == 1);
  CHECK(out.normal[0].y == doctest::Approx(1.f));  // the floor's
  CHECK(out.dv_normal[0] == doctest::Approx(0.f));  // not the palm's 0.6 m/s into the floor
  // a palm alone still holds it
  find_resting_contacts(colliders, 1, thickness, glm::vec3(0.f, -9.81f, 0.f), 1.f / 240.f, &mass, &kinematic, &x, &v,
                        last, out);
  REQUIRE(out.size() == 1);
  CHECK(out.normal[0].y == doctest::Approx(-1.f));
}

TEST_CASE("contact filter: a vertex a device holds is left to the pass after the step, whatever the collider") {
  // Held against table.json's front side while the hand drew its patch along it, a rim vertex took 593-4 606 m/s per
  // unit mass of impulse, its friction pinned it and its edges to the moving core threw their neighbours at
  // 2.3-4.4 m/s (table.json run live: 1-63 speed clamps in 3 runs of 24).
  const float thickness = 0.004f;
  Collider floor;  // the plane y = 0, standing still
  const glm::vec3 x(0.f, thickness, 0.f), v(0.f);
  const float mass = 1e-4f;
  const uint8_t kinematic = 0;
  ContactFilter last, out;
  last.resize(1);
  out.resize(1);
  const uint8_t free_vertex = 0, held_by_left = uint8_t(1u << int(Device::LeftHand));
  find_resting_contacts(&floor, 1, thickness, glm::vec3(0.f, -9.81f, 0.f), 1.f / 240.f, &mass, &kinematic, &x, &v,
                        last, out, &free_vertex);
  CHECK(out.size() == 1);
  find_resting_contacts(&floor, 1, thickness, glm::vec3(0.f, -9.81f, 0.f), 1.f / 240.f, &mass, &kinematic, &x, &v,
                        last, out, &held_by_left);
  CHECK(out.size() == 0);
}
