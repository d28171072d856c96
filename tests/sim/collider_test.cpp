#include <doctest/doctest.h>

#include <cmath>

#include "sim/collider.h"

using namespace weft;

TEST_CASE("signed distances and normals of plane, sphere, capsule and box") {
  glm::vec3 n;
  Collider plane;
  plane.pose.position = {0, 1, 0};
  CHECK(collider_distance(plane, {3, 1.5f, -2}, n) == doctest::Approx(0.5f));
  CHECK(n.y == doctest::Approx(1.f));

  Collider sphere;
  sphere.shape = ColliderShape::Sphere;
  sphere.radius = 0.5f;
  CHECK(collider_distance(sphere, {0, 0, 0.2f}, n) == doctest::Approx(-0.3f));
  CHECK(n.z == doctest::Approx(1.f));

  Collider capsule;
  capsule.shape = ColliderShape::Capsule;
  capsule.radius = 0.1f;
  capsule.half_length = 0.5f;
  capsule.pose.orientation = glm::angleAxis(float(M_PI / 2), glm::vec3(0, 0, 1));  // axis along -x
  CHECK(collider_distance(capsule, {0.3f, 0.3f, 0}, n) == doctest::Approx(0.2f));
  CHECK(n.y == doctest::Approx(1.f));
  CHECK(collider_distance(capsule, {0.9f, 0, 0}, n) == doctest::Approx(0.3f));  // beyond the cap

  Collider box;
  box.shape = ColliderShape::Box;
  box.half_extents = {1, 0.5f, 0.25f};
  CHECK(collider_distance(box, {0, 0, 0.2f}, n) == doctest::Approx(-0.05f));  // inside, nearest face +z
  CHECK(n.z == doctest::Approx(1.f));
  CHECK(collider_distance(box, {2, 1.5f, 0}, n) == doctest::Approx(std::sqrt(2.f)));
  CHECK(n.x == doctest::Approx(std::sqrt(0.5f)));
}

TEST_CASE("contact response: inelastic normal, static then kinetic Coulomb friction, separating untouched") {
  const glm::vec3 n(0, 1, 0);
  CHECK(contact_response({0.1f, -1.f, 0}, n, 0.5f, 0.4f) == glm::vec3(0.f));  // |vt| 0.1 <= 0.5 * 1: sticks
  const glm::vec3 slide = contact_response({2.f, -1.f, 0}, n, 0.5f, 0.4f);
  CHECK(slide.y == 0.f);
  CHECK(slide.x == doctest::Approx(1.6f));  // 2 - 0.4 * 1
  CHECK(contact_response({1.f, 0.5f, 0}, n, 0.5f, 0.4f) == glm::vec3(1.f, 0.5f, 0));
}

TEST_CASE("collision pass pushes vertices out to the thickness and carries them with a moving collider") {
  Collider floor;
  floor.linear_velocity = {1.f, 0.f, 0.f};  // a conveyor: moves along its own plane
  floor.mu_static = 1.f;
  const float h = 0.01f, thickness = 0.004f;
  const float inv_mass[2] = {1.f, 0.f};
  const glm::vec3 x_prev[2] = {{0, 0.004f, 0}, {0, -1, 0}};
  glm::vec3 x[2] = {{0, -0.01f, 0}, {0, -1, 0}};  // fell through during the step
  glm::vec3 v[2] = {{0, -1.4f, 0}, {0, 0, 0}};
  CollisionStats stats;
  resolve_collisions(&floor, 1, thickness, h, inv_mass, x_prev, x, v, 2, stats);
  CHECK(stats.contacts == 1);
  CHECK(x[0].y == doctest::Approx(thickness));
  CHECK(v[0].x == doctest::Approx(1.f));  // static friction: moves with the conveyor
  CHECK(v[0].y == doctest::Approx(0.f));
  CHECK(x[0].x == doctest::Approx(0.01f));
  CHECK(x[1].y == -1.f);  // immobile vertices are left alone
}

TEST_CASE("a moving collider's pose advances by its velocities") {
  Collider c;
  c.shape = ColliderShape::Sphere;
  c.linear_velocity = {0, 0, 2};
  c.angular_velocity = {0, 1, 0};
  advance_collider(c, 0.5f);
  CHECK(c.pose.position.z == doctest::Approx(1.f));
  CHECK(glm::angle(c.pose.orientation) == doctest::Approx(0.5f).epsilon(1e-4));
  CHECK(collider_point_velocity(c, c.pose.position + glm::vec3(1, 0, 0)).z == doctest::Approx(2.f - 1.f));
}

TEST_CASE("collider bounds contain the shapes, so culling never drops a contact") {
  Collider box;
  box.shape = ColliderShape::Box;
  box.half_extents = {0.3f, 0.4f, 1.2f};
  box.pose.orientation = glm::angleAxis(float(M_PI / 2), glm::vec3(0, 0, 1));  // x and y swap
  glm::vec3 lo, hi;
  REQUIRE(collider_bounds(box, lo, hi));
  CHECK(hi.x == doctest::Approx(0.4f));
  CHECK(hi.y == doctest::Approx(0.3f));
  CHECK(lo.z == doctest::Approx(-1.2f));
  Collider cap;
  cap.shape = ColliderShape::Capsule;
  cap.radius = 0.1f;
  cap.half_length = 0.5f;
  REQUIRE(collider_bounds(cap, lo, hi));
  CHECK(hi.y == doctest::Approx(0.6f));
  CHECK(hi.x == doctest::Approx(0.1f));
  CHECK_FALSE(collider_bounds(Collider{}, lo, hi));
  // a vertex just inside a box corner is still found
  box.pose.position = {1, 2, 3};
  box.pose.orientation = glm::quat(1.f, 0.f, 0.f, 0.f);
  box.previous_pose = box.pose;
  const float inv_mass[1] = {1.f};
  const glm::vec3 x_prev[1] = {glm::vec3(1.31f, 2.41f, 4.21f)};
  glm::vec3 x[1] = {glm::vec3(1.299f, 2.399f, 4.199f)};
  glm::vec3 v[1] = {glm::vec3(-1.f)};
  CollisionStats stats;
  resolve_collisions(&box, 1, 0.004f, 0.01f, inv_mass, x_prev, x, v, 1, stats);
  CHECK(stats.contacts == 1);
}

TEST_CASE("swept box test: a vertex that crossed a thin plate within the tick is found where it entered") {
  weft::Collider plate;
  plate.shape = weft::ColliderShape::Box;
  plate.pose.position = {0.f, 0.5f, 0.f};
  plate.previous_pose = plate.pose;
  plate.half_extents = {0.3f, 0.005f, 0.3f};
  glm::vec3 entry, n;
  // 6 cm down in one tick, from above to below the 1 cm plate
  REQUIRE(weft::swept_box_entry(plate, {0.1f, 0.53f, 0.f}, {0.1f, 0.47f, 0.f}, 0.f, entry, n));
  CHECK(entry.y == doctest::Approx(0.505f));
  CHECK(n == glm::vec3(0.f, 1.f, 0.f));
  // beside the plate, or stopping short of it, or starting inside: no crossing
  CHECK_FALSE(weft::swept_box_entry(plate, {0.4f, 0.53f, 0.f}, {0.4f, 0.47f, 0.f}, 0.f, entry, n));
  CHECK_FALSE(weft::swept_box_entry(plate, {0.1f, 0.53f, 0.f}, {0.1f, 0.51f, 0.f}, 0.f, entry, n));
  CHECK_FALSE(weft::swept_box_entry(plate, {0.1f, 0.5f, 0.f}, {0.1f, 0.47f, 0.f}, 0.f, entry, n));
  // resolve_collisions puts it back on top at the thickness, moving no faster than before
  float inv_mass = 1.f;
  glm::vec3 x_prev(0.1f, 0.53f, 0.f), x(0.1f, 0.47f, 0.f), v(0.f, -14.4f, 0.f);
  weft::CollisionStats stats;
  weft::resolve_collisions(&plate, 1, 0.004f, 1.f / 240, &inv_mass, &x_prev, &x, &v, 1, stats);
  CHECK(stats.contacts == 1);
  CHECK(x.y == doctest::Approx(0.509f));
  CHECK(v.y == doctest::Approx(0.f));
}

TEST_CASE("swept test: a vertex passing through a small sphere or a capsule within the tick is caught") {
  weft::Collider ball;
  ball.shape = weft::ColliderShape::Sphere;
  ball.pose.position = {0.f, 1.f, 0.f};
  ball.previous_pose = ball.pose;  // at rest (the swept test reads the motion from previous_pose to pose)
  ball.radius = 0.05f;
  glm::vec3 entry, n;
  REQUIRE(weft::swept_entry(ball, {0.01f, 1.2f, 0.f}, {0.01f, 0.8f, 0.f}, entry, n));
  CHECK(glm::distance(entry, ball.pose.position) == doctest::Approx(0.05f).epsilon(1e-3));
  CHECK(entry.y > 1.f);
  CHECK(n.y == doctest::Approx(std::sqrt(1.f - 0.2f * 0.2f)).epsilon(1e-3));  // 1 cm off the centre line
  CHECK_FALSE(weft::swept_entry(ball, {0.06f, 1.2f, 0.f}, {0.06f, 0.8f, 0.f}, entry, n));  // passes beside it
  weft::Collider arm = ball;
  arm.shape = weft::ColliderShape::Capsule;
  arm.half_length = 0.2f;  // along y
  REQUIRE(weft::swept_entry(arm, {-0.2f, 1.1f, 0.f}, {0.2f, 1.1f, 0.f}, entry, n));
  CHECK(entry.x == doctest::Approx(-0.05f).epsilon(1e-3));
  CHECK(n.x < -0.99f);
  CHECK_FALSE(weft::swept_entry(arm, {-0.2f, 1.3f, 0.f}, {0.2f, 1.3f, 0.f}, entry, n));  // above its end cap
}

TEST_CASE("collision pass reports the contact normals' span and whether static friction stuck a vertex") {
  Collider floor;
  floor.mu_static = floor.mu_kinetic = 0.5f;
  const float h = 0.01f, thickness = 0.004f;
  const float inv_mass[2] = {1.f, 1.f};
  const glm::vec3 x_prev[2] = {{0, 0.004f, 0}, {1, 0.004f, 0}};
  auto run = [&](float tangential) {
    glm::vec3 x[2] = {{0, 0.002f, 0}, {1, 0.002f, 0}};
    glm::vec3 v[2] = {{tangential, -0.2f, 0}, {tangential, -0.2f, 0}};
    CollisionStats stats;
    ContactAxes axes;
    resolve_collisions(&floor, 1, thickness, h, inv_mass, x_prev, x, v, 2, stats, {.axes = &axes});
    return axes;
  };
  const ContactAxes stuck = run(0.05f), sliding = run(1.f);
  CHECK(stuck.stuck);  // |vt| 0.05 <= 0.5 * 0.2
  CHECK(!sliding.stuck);
  REQUIRE(sliding.count == 1);  // two contacts on one plane: one axis
  CHECK(std::abs(sliding.axis[0].y) == doctest::Approx(1.f));
  CHECK(sliding.remove_from({1.f, 2.f, 3.f}) == glm::vec3(1.f, 0.f, 3.f));

  ContactAxes corner;  // a cloth over a box edge: the top and a side span two axes; a third normal fills 3
  corner.add({0, 1, 0});
  corner.add({0.05f, 0.99875f, 0});  // within 8 degrees of the first: no new axis
  CHECK(corner.count == 1);
  corner.add({1, 0, 0});
  CHECK(corner.count == 2);
  CHECK(glm::length(corner.remove_from({1.f, 1.f, 1.f}) - glm::vec3(0, 0, 1)) < 1e-6f);
  corner.add({0, 0, 1});
  CHECK(corner.count == 3);
  CHECK(glm::length(corner.remove_from({1.f, 1.f, 1.f})) < 1e-6f);
}

TEST_CASE("collision pass over a subset: only those vertices are looked at, and what moved is recorded") {
  Collider floor;  // the plane y = 0
  const float thickness = 0.004f, h = 1.f / 240;
  std::vector<glm::vec3> x = {{0.f, -0.01f, 0.f}, {0.1f, -0.01f, 0.f}, {0.2f, 0.5f, 0.f}};
  const std::vector<glm::vec3> x_prev = x;
  std::vector<glm::vec3> v(3, glm::vec3(0.f));
  const std::vector<float> inv_mass(3, 1.f);
  VertexSet only, moved;
  only.resize(3);
  moved.resize(3);
  only.insert(1);
  only.insert(2);
  CollisionStats stats;
  resolve_collisions(&floor, 1, thickness, h, inv_mass.data(), x_prev.data(), x.data(), v.data(), 3, stats,
                     {.only = &only, .moved = &moved});
  CHECK(stats.contacts == 1);
  CHECK(x[0].y == -0.01f);  // outside the subset: left where it was, though inside the floor
  CHECK(x[1].y == doctest::Approx(thickness));
  CHECK(x[2].y == 0.5f);
  REQUIRE(moved.size() == 1);
  CHECK(moved.list[0] == 1);
  // the whole cloth: vertex 0 now, vertex 1 is already out (not moved again)
  moved.clear();
  resolve_collisions(&floor, 1, thickness, h, inv_mass.data(), x_prev.data(), x.data(), v.data(), 3, stats,
                     {.moved = &moved});
  CHECK(x[0].y == doctest::Approx(thickness));
  CHECK(moved.member[0] == 1);
  CHECK(moved.member[2] == 0);
}

TEST_CASE("swept test in the collider's frame: a vertex at rest that a moving or turning capsule passes over is caught") {
  // A thin capsule (a forearm, r 1 cm) moving 3 cm in a tick across a vertex at rest: the vertex is outside it
  // at both ends of the tick and did not move in the world; relative to the capsule it crossed it.
  Collider bar;
  bar.shape = ColliderShape::Capsule;
  bar.radius = 0.01f;
  bar.half_length = 0.1f;
  bar.previous_pose.position = {0.f, 0.f, 0.015f};
  bar.pose.position = {0.f, 0.f, -0.015f};
  const glm::vec3 vertex(0.f, 0.f, 0.f);
  glm::vec3 entry, n;
  REQUIRE(swept_entry(bar, vertex, vertex, entry, n));
  CHECK(n.z < -0.9f);  // it entered through the capsule's leading side
  CHECK(std::abs(glm::length(entry - bar.pose.position) - bar.radius) < 1e-4f);
  // and the collision pass brings it out ahead of the capsule, on the side it was
  glm::vec3 x = vertex, v(0.f);
  const glm::vec3 x_prev = vertex;
  const float inv_mass = 1.f;
  CollisionStats stats;
  bar.linear_velocity = {0.f, 0.f, -0.03f * 240.f};
  resolve_collisions(&bar, 1, 0.004f, 1.f / 240.f, &inv_mass, &x_prev, &x, &v, 1, stats);
  CHECK(stats.contacts == 1);
  CHECK(x.z < bar.pose.position.z - bar.radius);
  // A capsule turning about its centre sweeps its tip past a vertex at rest in the same way.
  Collider arm = bar;
  arm.previous_pose = Pose{};
  arm.pose.position = glm::vec3(0.f);
  arm.pose.orientation = glm::angleAxis(0.3f, glm::vec3(0, 0, 1));  // turned 0.3 rad in the tick
  const glm::vec3 near_tip = glm::angleAxis(0.15f, glm::vec3(0, 0, 1)) * glm::vec3(0.f, 0.09f, 0.f);
  CHECK(swept_entry(arm, near_tip, near_tip, entry, n));
  // A collider that did not move sees only the vertex's own motion (none here: nothing to find).
  Collider still = bar;
  still.previous_pose = still.pose;
  CHECK_FALSE(swept_entry(still, vertex, vertex, entry, n));
}
