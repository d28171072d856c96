#include <doctest/doctest.h>

#include "engine/snapshot_builder.h"
#include "sim/mesh_generators.h"

namespace weft {

TEST_CASE("snapshot builder: unit normals along the triangle winding, signed per-vertex strain, pin flags") {
  GridSpec g;
  g.columns = g.rows = 4;
  World world(build_cloth_model(make_grid(g), Material{}, {0}), WorldConfig{});
  ClothSnapshot snap;
  fill_snapshot(world, snap);
  REQUIRE(snap.position.size() == world.model().vertex_count());
  for (const glm::vec3& n : snap.normal) {
    CHECK(n.z == doctest::Approx(1.f));  // grid in z = 0, counter-clockwise triangles
  }
  for (float s : snap.strain) CHECK(s == doctest::Approx(0.f));
  CHECK(snap.grasped[0] == 4);
  CHECK(snap.grasped[1] == 0);

  // Stretch the last column by 10 % of a cell along x: its vertices report +0.1 strain.
  std::vector<glm::vec3> stretched = world.state().position;
  for (size_t i = 0; i < stretched.size(); ++i)
    if (i % 5 == 4) stretched[i].x += 0.1f * 0.25f;
  std::vector<float> strain;
  compute_vertex_strain(world.model(), stretched, strain);
  CHECK(strain[4] == doctest::Approx(0.1f).epsilon(0.02));
  CHECK(strain[2] == doctest::Approx(0.f));
}

TEST_CASE("snapshot gizmos hold what the world holds: a grab that caught nothing holds nothing") {
  GridSpec g;
  g.columns = g.rows = 4;
  World world(build_cloth_model(make_grid(g), Material{}), WorldConfig{});
  const glm::vec3 corner = world.model().rest_position[0];
  REQUIRE(world.grab(Hand::Left, Pose{corner, {1, 0, 0, 0}}, 0.02f) > 0);
  CHECK(world.grab(Hand::Right, Pose{corner + glm::vec3(0.f, 0.f, 1.f), {1, 0, 0, 0}}, 0.02f) == 0);
  REQUIRE(world.attach(Device::Tracker3, {24, 23}, Pose{}) == 2);
  ClothSnapshot snap;
  fill_snapshot(world, snap);
  CHECK(snap.hands[0].grabbing);
  CHECK(snap.hands[0].held_vertices == world.held_vertices(Device::LeftHand).size());
  CHECK_FALSE(snap.hands[1].grabbing);
  CHECK(snap.hands[1].held_vertices == 0);
  CHECK(snap.trackers[3].grabbing);
  CHECK(snap.trackers[3].held_vertices == 2);
  for (size_t k = 0; k < 3; ++k) CHECK_FALSE(snap.trackers[k].grabbing);
  world.release(Hand::Left);
  world.detach(Device::Tracker3);
  fill_snapshot(world, snap);
  CHECK_FALSE(snap.hands[0].grabbing);
  CHECK_FALSE(snap.trackers[3].grabbing);
}

TEST_CASE("snapshot solids: every collider but the floor and the table, rigid boxes after, the rest counted") {
  GridSpec g;
  g.columns = g.rows = 2;
  World world(build_cloth_model(make_grid(g), Material{}), WorldConfig{});
  Collider floor, table, turned, moving, sphere;
  table.shape = turned.shape = moving.shape = ColliderShape::Box;
  table.pose.position = {0.f, -2.f, 0.f};
  turned.pose.orientation = glm::angleAxis(0.3f, glm::vec3(0, 1, 0));
  turned.pose.position = moving.pose.position = sphere.pose.position = glm::vec3(5.f);  // away from the cloth
  moving.linear_velocity = {0.f, 0.f, 1.f};
  sphere.shape = ColliderShape::Sphere;
  // A turned or moving box is not the table, even before the still one.
  CHECK(table_collider_index({floor, turned, moving, table}) == 3);
  CHECK(table_collider_index({floor, sphere}) == -1);
  for (const Collider& c : {floor, turned, moving, table, sphere}) world.add_collider(c);
  RigidBox crate;
  crate.pose.position = glm::vec3(-5.f);
  world.add_rigid_box(crate);
  ClothSnapshot snap;
  fill_snapshot(world, snap);
  REQUIRE(snap.solid_count == 4);
  CHECK(snap.solids[0].orientation == turned.pose.orientation);
  CHECK(snap.solids[1].position == moving.pose.position);
  CHECK(snap.solids[2].shape == SolidShape::Sphere);
  CHECK(snap.solids[2].size.x == sphere.radius);
  CHECK(snap.solids[3].rigid);
  CHECK(snap.solids[3].position == crate.pose.position);
  world.step();  // the moving box's pose advances, and the snapshot follows it
  fill_snapshot(world, snap);
  CHECK(snap.solids[1].position.z == doctest::Approx(5.f + float(world.time_step())));

  // More solids than a snapshot carries: the first kMaxSolids, the rest counted.
  World crowded(build_cloth_model(make_grid(g), Material{}), WorldConfig{});
  for (const Collider& c : {floor, turned, moving, table, sphere}) crowded.add_collider(c);
  crowded.add_rigid_box(crate);
  for (int k = 0; k < int(ClothSnapshot::kMaxSolids); ++k) crowded.add_collider(sphere);
  fill_snapshot(crowded, snap);
  CHECK(snap.solid_count == ClothSnapshot::kMaxSolids);
  CHECK(snap.solids_left_out == 4);
}

}  // namespace weft
