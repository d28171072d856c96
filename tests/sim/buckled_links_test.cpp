#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "sim/buckled_links.h"
#include "sim/cloth_model.h"
#include "sim/cloth_state.h"
#include "sim/collider.h"
#include "sim/force_field.h"
#include "sim/material.h"
#include "sim/mesh.h"
#include "sim/mesh_generators.h"
#include "sim/rigid_body.h"
#include "sim/world.h"
#include "tests/sim/pose_samples.h"

using namespace weft;

namespace {

// One right triangle, 3 cm legs, in the isotropic springs (k = 500 / l0).
ClothModel triangle_model(Material material = Material{}) {
  Mesh mesh;
  mesh.positions = {{0.f, 0.f, 0.f}, {0.03f, 0.f, 0.f}, {0.f, 0.f, 0.03f}};
  mesh.material = {{0.f, 0.f}, {0.03f, 0.f}, {0.f, 0.03f}};
  mesh.triangles = {{0, 2, 1}};
  return build_cloth_model(mesh, material);
}

// The structural link between vertices a and b.
size_t link_of(const ClothModel& m, uint32_t a, uint32_t b) {
  for (size_t l = 0; l < m.edge_count; ++l)
    if ((m.link[l][0] == a && m.link[l][1] == b) || (m.link[l][0] == b && m.link[l][1] == a)) return l;
  FAIL("no link");
  return 0;
}

}  // namespace

TEST_CASE("buckled links: a spring's tension is capped at its force at the buckling strain, in compression only") {
  CHECK(buckled_tension(1000.f, 0.02f, 0.022f, 0.02f) == doctest::Approx(2.f));      // stretched: k (l - l0)
  CHECK(buckled_tension(1000.f, 0.02f, 0.0197f, 0.02f) == doctest::Approx(-0.3f));   // 1.5 % short: as a spring
  CHECK(buckled_tension(1000.f, 0.02f, 0.0140f, 0.02f) == doctest::Approx(-0.4f));   // 30 % short: 2 % of k l0
}

TEST_CASE("buckled links: marked where the corrections crushed a link past the strain at a landing, kept until it is back within") {
  const ClothModel m = triangle_model();
  REQUIRE(springs_buckle(m));
  const size_t l01 = link_of(m, 0, 1), l02 = link_of(m, 0, 2), l12 = link_of(m, 1, 2);
  std::vector<glm::vec3> x = m.rest_position;
  std::vector<float> solved(m.edge_count);
  std::vector<uint8_t> buckled(m.edge_count, 0);
  constexpr float kT = 0.004f;  // contact thickness
  const Collider floor{};       // the plane y = 0, the triangle lying on it
  std::vector<glm::vec3> start = m.rest_position;
  // The solve left the link 0-2 5 % short; the corrections then push vertex 1 toward 0: 0-1 crushed 20 %.
  x[2] = glm::vec3(0.f, 0.f, 0.0285f);
  record_solved_lengths(m, x.data(), solved.data());
  x[1] = glm::vec3(0.024f, 0.f, 0.f);
  // Not landing (vertex 1 came from where it is): a crush in a heap or in the air stays a spring.
  CHECK(!mark_buckled_links(m, x.data(), solved.data(), kBuckleStrain, nullptr, 0, &floor, 1, 1.5f * kT, start.data(), kT, buckled.data()));
  start[1].y += 0.01f;  // vertex 1 came 1 cm down onto the floor this step: it landed
  CHECK(mark_buckled_links(m, x.data(), solved.data(), kBuckleStrain, nullptr, 0, &floor, 1, 1.5f * kT, start.data(), kT, buckled.data()));
  CHECK(buckled[l01] == 1);  // crushed by the corrections
  CHECK(buckled[l12] == 1);  // 12 % short, by the corrections too
  CHECK(buckled[l02] == 0);  // compressed by the solve itself: a spring as before
  // Next tick the solve lengthens 0-1 to 10 % short, the corrections leave it: still buckled.
  x[1] = glm::vec3(0.027f, 0.f, 0.f);
  record_solved_lengths(m, x.data(), solved.data());
  CHECK(mark_buckled_links(m, x.data(), solved.data(), kBuckleStrain, nullptr, 0, &floor, 1, 1.5f * kT, start.data(), kT, buckled.data()));
  CHECK(buckled[l01] == 1);
  // Back within the strain: springs again.
  x[1] = glm::vec3(0.0297f, 0.f, 0.f);
  x[2] = m.rest_position[2];
  record_solved_lengths(m, x.data(), solved.data());
  CHECK(!mark_buckled_links(m, x.data(), solved.data(), kBuckleStrain, nullptr, 0, &floor, 1, 1.5f * kT, start.data(), kT, buckled.data()));
  CHECK(buckled[l01] == 0);
  CHECK(buckled[l12] == 0);
}

TEST_CASE("buckled links: evaluate_forces pushes a buckled link's ends with the capped force, the others as springs") {
  const ClothModel m = triangle_model();
  std::vector<glm::vec3> x = m.rest_position, v(3, glm::vec3(0.f));
  x[1] = glm::vec3(0.021f, 0.f, 0.f);  // link 0-1 30 % short
  ForceBuffers plain(m), capped(m);
  std::vector<uint8_t> buckled(m.edge_count, 0);
  buckled[link_of(m, 0, 1)] = 1;
  evaluate_forces(m, x.data(), v.data(), plain, {.jacobian = true});
  evaluate_forces(m, x.data(), v.data(), capped, {.jacobian = true, .buckled = buckled.data()});
  const size_t l = link_of(m, 0, 1);
  const float k = m.stiffness[l], l0 = m.rest_length[l];
  // The link's push on vertex 1 along +x goes from k 0.3 l0 to k 0.02 l0; the other links are unchanged.
  const float dx = capped.force[1].x - plain.force[1].x;
  CHECK(dx == doctest::Approx(-k * (0.3f - kBuckleStrain) * l0).epsilon(1e-3));
  CHECK(capped.force[0].x - plain.force[0].x == doctest::Approx(-dx).epsilon(1e-3));
  CHECK(capped.force[2].x == doctest::Approx(plain.force[2].x));
  CHECK(capped.force[2].z == doctest::Approx(plain.force[2].z));
  // The Jacobian is the spring's: the solve still resists crushing the link further.
  CHECK(capped.link_jacobian.get(l).xx == doctest::Approx(plain.link_jacobian.get(l).xx));
}

TEST_CASE("buckled links: only the spring links buckle (the other stretch models' links carry no spring force)") {
  Material volino;
  volino.stretch_model = StretchModel::Volino;
  CHECK(!springs_buckle(triangle_model(volino)));
  CHECK(make_rest_state(triangle_model(volino)).buckled.empty());
  CHECK(make_rest_state(triangle_model()).buckled.size() == 3);
}

TEST_CASE("buckled links: a link at a rigid box does not buckle (the box pass carries the box's weight)") {
  const ClothModel m = triangle_model();
  std::vector<glm::vec3> x = m.rest_position;
  std::vector<float> solved(m.edge_count);
  std::vector<uint8_t> buckled(m.edge_count, 0);
  constexpr float kT = 0.004f;
  const Collider floor{};
  std::vector<glm::vec3> start = m.rest_position;
  start[1].y += 0.01f;  // landed
  record_solved_lengths(m, x.data(), solved.data());
  x[1] = glm::vec3(0.024f, 0.f, 0.f);  // 0-1 crushed 20 % by the corrections
  RigidBox box;
  box.half_extents = glm::vec3(0.1f);
  box.pose.position = x[1] + glm::vec3(0.f, 0.102f, 0.f);  // resting 2 mm over vertex 1
  CHECK(!mark_buckled_links(m, x.data(), solved.data(), kBuckleStrain, &box, 1, &floor, 1, 1.5f * kT, start.data(), kT, buckled.data()));
  box.pose.position.y += 0.05f;  // 5 cm over it: the link buckles
  CHECK(mark_buckled_links(m, x.data(), solved.data(), kBuckleStrain, &box, 1, &floor, 1, 1.5f * kT, start.data(), kT, buckled.data()));
  CHECK(buckled[link_of(m, 0, 1)] == 1);
}

TEST_CASE("buckled links: in free flight a link the corrections crushed buckles with no push at all, until back at its rest length") {
  const ClothModel m = triangle_model();
  const size_t l01 = link_of(m, 0, 1), l02 = link_of(m, 0, 2);
  std::vector<glm::vec3> x = m.rest_position;
  std::vector<float> solved(m.edge_count);
  std::vector<uint8_t> buckled(m.edge_count, 0);
  constexpr float kT = 0.004f;
  Collider floor{};
  floor.pose.position.y = -1.f;  // a metre under the triangle: nothing lands
  const std::vector<glm::vec3> start = m.rest_position;
  record_solved_lengths(m, x.data(), solved.data());
  x[1] = glm::vec3(0.024f, 0.f, 0.f);  // the self-contacts push vertex 1 toward 0: 0-1 crushed 20 %
  // Not landing and not in flight (a heap, a held cloth): a spring as before.
  CHECK(!mark_buckled_links(m, x.data(), solved.data(), kBuckleStrain, nullptr, 0, &floor, 1, 1.5f * kT, start.data(), kT, buckled.data(), false));
  // In flight: buckled, as the flight's kind.
  CHECK(mark_buckled_links(m, x.data(), solved.data(), kBuckleStrain, nullptr, 0, &floor, 1, 1.5f * kT, start.data(), kT, buckled.data(), true));
  CHECK(buckled[l01] == kBuckledInFlight);
  CHECK(buckled[link_of(m, 1, 2)] == kBuckledInFlight);  // 9 % short, by the corrections too
  CHECK(buckled[l02] == 0);
  // They push their ends not at all (a landing's buckle pushes with its force at 2 %): vertex 1, whose two
  // links both buckled, feels no in-plane force (it felt 130 N); the Jacobian is kept.
  std::vector<glm::vec3> v(3, glm::vec3(0.f));
  ForceBuffers plain(m), capped(m);
  evaluate_forces(m, x.data(), v.data(), plain, {.jacobian = true});
  evaluate_forces(m, x.data(), v.data(), capped, {.jacobian = true, .buckled = buckled.data()});
  CHECK(plain.force[1].x > 100.f);
  CHECK(capped.force[1].x == doctest::Approx(0.f).epsilon(1e-3).scale(1.f));
  CHECK(capped.force[1].z == doctest::Approx(0.f).epsilon(1e-3).scale(1.f));
  CHECK(capped.link_jacobian.get(l01).xx == doctest::Approx(plain.link_jacobian.get(l01).xx));
  // Kept, whatever the flight, while it is shorter than at rest (1 % short: past the landing's 2 %, still
  // buckled, so no push appears when the mark goes) ...
  x[1] = glm::vec3(0.0297f, 0.f, 0.f);
  record_solved_lengths(m, x.data(), solved.data());
  CHECK(mark_buckled_links(m, x.data(), solved.data(), kBuckleStrain, nullptr, 0, &floor, 1, 1.5f * kT, start.data(), kT, buckled.data(), false));
  CHECK(buckled[l01] == kBuckledInFlight);
  // ... and a spring again once back at its rest length.
  x[1] = m.rest_position[1];
  record_solved_lengths(m, x.data(), solved.data());
  CHECK(!mark_buckled_links(m, x.data(), solved.data(), kBuckleStrain, nullptr, 0, &floor, 1, 1.5f * kT, start.data(), kT, buckled.data(), false));
}

TEST_CASE("buckled links: the cloth flies free only with no kinematic vertex, no collider contact and no rigid box near") {
  const std::vector<glm::vec3> x = {{0.f, 1.f, 0.f}, {0.03f, 1.f, 0.f}};
  std::vector<uint8_t> kinematic(2, 0), contact(2, 0);
  CHECK(cloth_in_flight(kinematic.data(), contact.data(), x.data(), 2, nullptr, 0, 0.006f));
  kinematic[1] = 1;  // pinned or held
  CHECK(!cloth_in_flight(kinematic.data(), contact.data(), x.data(), 2, nullptr, 0, 0.006f));
  kinematic[1] = 0;
  contact[0] = 1;  // on a collider
  CHECK(!cloth_in_flight(kinematic.data(), contact.data(), x.data(), 2, nullptr, 0, 0.006f));
  contact[0] = 0;
  RigidBox box;
  box.half_extents = glm::vec3(0.1f);
  box.pose.position = x[0] + glm::vec3(0.f, 0.104f, 0.f);  // 4 mm over vertex 0
  CHECK(!cloth_in_flight(kinematic.data(), contact.data(), x.data(), 2, &box, 1, 0.006f));
  box.pose.position.y += 0.1f;
  CHECK(cloth_in_flight(kinematic.data(), contact.data(), x.data(), 2, &box, 1, 0.006f));
}

TEST_CASE("buckled links: the flight after a release lasts from a grip's letting go to the first touch, and only then") {
  // World::step buckles the links the corrections crush in flight only after a release: a folded cloth floating
  // weightless and never released (world_edit_test's cut fold) crumpled with them buckled.
  Mesh mesh = make_irregular({.width = 0.3f, .height = 0.3f, .columns = 10, .rows = 10, .seed = 4});
  for (auto& p : mesh.positions) p = glm::vec3(p.x, 0.6f, p.y);
  WorldConfig config;
  config.failsafe.enabled = false;
  World w(build_cloth_model(mesh, Material{}), config);
  Collider floor{};
  floor.shape = ColliderShape::Plane;
  w.add_collider(floor);
  REQUIRE(!w.state().buckled.empty());  // springs: the links can buckle
  const glm::vec3 corner = w.state().position[0];
  const double h = w.time_step();
  // Dropped from the start, nothing released: never the flight after a release.
  for (int k = 0; k < 12; ++k) {
    w.step();
    CHECK(!w.world_state().flying_since_release);
  }
  w.reset();
  bool released = false, flew = false, landed = false;
  for (double t = 0; t < 1.0; t += h) {
    if (t < 0.2) w.submit_pose(test::sample(Device::LeftHand, t, corner));
    if (t == 0) REQUIRE(w.grab(Hand::Left, test::at(corner), 0.03f) > 0);
    if (t < 0.2) {
      w.step();
      CHECK(!w.world_state().flying_since_release);  // held
      continue;
    }
    if (!released) w.release(Hand::Left), released = true;
    w.step();
    float lowest = 1e9f;
    for (const glm::vec3& p : w.state().position) lowest = std::min(lowest, p.y);
    if (w.world_state().flying_since_release) flew = true;
    if (lowest < 0.01f) landed = true;
    if (landed && lowest < 0.005f) CHECK(!w.world_state().flying_since_release);  // on the floor: over
  }
  CHECK(flew);
  CHECK(landed);
}
