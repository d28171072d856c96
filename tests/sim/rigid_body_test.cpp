#include <doctest/doctest.h>

#include "sim/rigid_body.h"

using namespace weft;

TEST_CASE("a box dropped on a plane comes to rest on it") {
  RigidBox box;
  box.pose.position = {0, 0.5f, 0};
  box.pose.orientation = glm::angleAxis(0.3f, glm::normalize(glm::vec3(1, 0, 1)));
  Collider floor;
  for (int k = 0; k < 2400; ++k) {
    advance_rigid_box(box, {0, -9.81f, 0}, 1.f / 240);
    resolve_box_plane(box, floor);
  }
  CHECK(glm::length(box.linear_velocity) < 0.05f);
  CHECK(box.pose.position.y > 0.09f);
  CHECK(box.pose.position.y < 0.2f);
}

TEST_CASE("cloth-box contact impulses conserve the total linear momentum") {
  RigidBox box;
  box.mass = 0.5f;
  box.pose.position = {0, 0, 0};
  box.linear_velocity = {0.2f, -1.f, 0};
  const float inv_mass[3] = {100.f, 100.f, 100.f};  // 10 g vertices
  glm::vec3 x[3] = {{0, -0.099f, 0}, {0.05f, -0.098f, 0.02f}, {0, -0.5f, 0}};
  glm::vec3 v[3] = {{0, 0, 0}, {0.1f, 0, 0}, {0, 0, 0}};
  auto momentum = [&] {
    glm::vec3 p = box.momentum();
    for (int i = 0; i < 3; ++i) p += v[i] / inv_mass[i];
    return p;
  };
  const glm::vec3 before = momentum();
  const glm::vec3 x_prev[3] = {x[0], x[1], x[2]};
  CHECK(resolve_cloth_box(box, 0.004f, inv_mass, x_prev, x, v, 3) == 2);
  const glm::vec3 after = momentum();
  CHECK(after.x == doctest::Approx(before.x).epsilon(1e-5));
  CHECK(after.y == doctest::Approx(before.y).epsilon(1e-5));
  CHECK(v[0].y < 0.f);  // the box pushed the vertex down
  CHECK(box.linear_velocity.y > -1.f);
}

TEST_CASE("a box meeting a pinned vertex moves itself, not the pin") {
  RigidBox box;
  box.mass = 0.2f;
  box.linear_velocity = {0, -1.f, 0};
  const float inv_mass[2] = {8000.f, 8000.f};  // 0.125 g vertices
  const uint8_t kinematic[2] = {0, 1};
  glm::vec3 x[2] = {{0.05f, -0.099f, 0}, {0, -0.099f, 0}};
  glm::vec3 v[2] = {glm::vec3(0.f), glm::vec3(0.f)};
  const glm::vec3 x_prev[2] = {x[0], x[1]};
  CHECK(resolve_cloth_box(box, 0.004f, inv_mass, x_prev, x, v, 2, kinematic) == 2);
  CHECK(x[0].y < x_prev[0].y);  // the free vertex gives way as before
  CHECK(x[1] == x_prev[1]);     // the pin stays where it is pinned
  CHECK(v[1] == glm::vec3(0.f));
  CHECK(box.pose.position.y > 0.004f);         // the box is pushed out of it instead
  CHECK(box.linear_velocity.y > -1.f + 0.5f);  // and stopped by it
}
