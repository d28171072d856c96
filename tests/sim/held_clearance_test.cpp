#include <doctest/doctest.h>

#include "sim/held_clearance.h"

using namespace weft;

namespace {
// A box of half extents 0.5 x 0.375 x 0.3 with its top at y = 0.75 and its front face at z = 0.3 (the table).
Collider table() {
  Collider c;
  c.shape = ColliderShape::Box;
  c.half_extents = {0.5f, 0.375f, 0.3f};
  c.pose.position = {0.f, 0.375f, 0.f};
  return c;
}
}  // namespace

// Three held vertices in a row across the table's front edge, moving into the table: one ends 1 cm
// inside the front face, one over the top, one in front; a fourth vertex is free, a fifth weighted 0.5.
TEST_CASE("held clearance: a held patch driven into a table's edge moves out as one piece") {
  const float thickness = 0.004f, h = 0.01f;
  std::vector<glm::vec3> x = {{0.f, 0.745f, 0.31f}, {0.f, 0.745f, 0.33f}, {0.f, 0.76f, 0.29f},
                              {0.1f, 0.745f, 0.31f}, {0.2f, 0.745f, 0.31f}};
  const std::vector<glm::vec3> start = x;
  std::vector<glm::vec3> kv(x.size(), glm::vec3(0.f, 0.f, -2.f));  // 2 cm into -z this step
  std::vector<uint8_t> kinematic = {1, 1, 1, 0, 1}, is_fixed(x.size(), 0);
  std::array<ElasticSet, kDeviceCount> sets;
  sets[0].vertex = {0, 1, 2, 4};
  sets[0].offset.assign(4, glm::vec3(0.f));
  sets[0].weight = {1.f, 1.f, 1.f, 0.5f};
  std::vector<Collider> colliders = {table()};
  const glm::vec3 hand_velocity(0.f, 0.f, -2.f);
  std::array<glm::vec3, kDeviceCount> shift;

  CHECK(clear_held_of_colliders(sets, colliders, is_fixed.data(), thickness, h, x.data(), kinematic.data(), kv.data(), shift) == 1);
  // every held vertex's end of step is outside the box by the thickness, within rounding
  for (uint32_t i : {0u, 1u, 2u}) {
    glm::vec3 n;
    CHECK(collider_distance(colliders[0], x[i] + h * kv[i], n) >= thickness - 1e-5f);
  }
  // moved together: the same shift for all three, out of the top face only (1 cm deep there, 1.4 in front)
  CHECK(shift[0].x == 0.f);
  CHECK(shift[0].z == 0.f);
  CHECK(shift[0].y == doctest::Approx(0.75f + thickness - 0.745f).epsilon(1e-3));
  for (uint32_t i : {0u, 1u, 2u}) CHECK(glm::length(kv[i] - (hand_velocity + shift[0] / h)) < 1e-4f);
  for (int d = 1; d < kDeviceCount; ++d) CHECK(shift[d] == glm::vec3(0.f));
  // the free vertex and the partly held one are left to the colliders
  CHECK(kv[3] == hand_velocity);
  CHECK(kv[4] == hand_velocity);
  CHECK(x == start);  // positions move in the step
  // after the step the shift leaves the velocities: the patch stopped, it does not keep going up
  std::vector<glm::vec3> v = kv;
  forget_held_shift(sets, shift, is_fixed.data(), h, kinematic.data(), v.data());
  for (const glm::vec3& vi : v) CHECK(glm::length(vi - hand_velocity) < 1e-4f);

  // a plane (the floor) is left to the per-vertex pass, which cannot tear a patch on it (one normal)
  std::vector<Collider> floor(1);
  floor[0].pose.position = {0.f, 0.76f, 0.f};  // the patch ends 1.5 cm under it
  std::fill(kv.begin(), kv.end(), hand_velocity);
  CHECK(clear_held_of_colliders(sets, floor, is_fixed.data(), thickness, h, x.data(), kinematic.data(), kv.data(), shift) == 0);
  CHECK(kv[0] == hand_velocity);

  // a collider that follows a device (the hand's own) is not pushed against; nor is a patch outside it
  std::fill(kv.begin(), kv.end(), hand_velocity);
  colliders[0].follows = Device::LeftHand;
  CHECK(clear_held_of_colliders(sets, colliders, is_fixed.data(), thickness, h, x.data(), kinematic.data(), kv.data(), shift) == 0);
  CHECK(kv[0] == hand_velocity);
  colliders[0].follows.reset();
  std::fill(kv.begin(), kv.end(), -hand_velocity);  // away from the table, the vertex over the top higher
  x[2].y = 0.8f;
  CHECK(clear_held_of_colliders(sets, colliders, is_fixed.data(), thickness, h, x.data(), kinematic.data(), kv.data(), shift) == 0);
  CHECK(kv[0] == -hand_velocity);
}
