#include <doctest/doctest.h>

#include <vector>

#include "sim/cloth_model.h"
#include "sim/collider.h"
#include "sim/contact_filter.h"
#include "sim/landing_filter.h"
#include "sim/material.h"
#include "sim/mesh.h"

using namespace weft;

namespace {

constexpr float kThickness = 0.004f;

// One triangle: vertex 0 landed on the floor (y = thickness) from 2 cm up; vertices 1 and 2 free, 3 cm off
// along x and z, `rise` above it, having come `fall` toward the floor last step. Returns the filter left with
// vertex 0's contact, or not.
bool keeps_landed(float rise, const std::vector<Collider>& colliders, float fall = 0.f) {
  Mesh mesh;
  mesh.positions = {{0.f, 0.f, 0.f}, {0.03f, 0.f, 0.f}, {0.f, 0.f, 0.03f}};
  mesh.material = {{0.f, 0.f}, {0.03f, 0.f}, {0.f, 0.03f}};
  mesh.triangles = {{0, 2, 1}};
  const ClothModel model = build_cloth_model(mesh, Material{});
  const std::vector<glm::vec3> x = {{0.f, kThickness, 0.f}, {0.03f, kThickness + rise, 0.f},
                                    {0.f, kThickness + rise, 0.03f}};
  std::vector<glm::vec3> x_last = x;
  x_last[0].y += 0.02f;  // came 2 cm toward the floor last step: just landed
  x_last[1].y += fall;
  x_last[2].y += fall;
  const std::vector<uint8_t> kinematic(3, 0);
  ContactFilter filter;
  filter.resize(3);
  filter.entry_of_vertex[0] = 0;
  filter.vertex.push_back(0);
  filter.normal.push_back({0.f, 1.f, 0.f});
  filter.dv_normal.push_back(0.f);
  filter.friction.push_back(0.f);
  filter.slip.push_back(glm::vec3(0.f));
  filter.impulse.push_back(0.f);
  filter.distance.push_back(0.f);
  leave_flat_landings(model, colliders.data(), colliders.size(), kinematic.data(), x.data(), x_last.data(),
                      kThickness, filter);
  const bool kept = filter.size() == 1 && filter.vertex[0] == 0 && filter.entry_of_vertex[0] == 0;
  CHECK((kept || (filter.empty() && filter.entry_of_vertex[0] == ContactFilter::kNone)));
  return kept;
}

}  // namespace

TEST_CASE("landing filter: a just-landed vertex the cloth comes down onto is held, one it lands beside is left to the pass") {
  const std::vector<Collider> floor = {Collider{}};
  CHECK(keeps_landed(0.025f, floor));    // neighbours 40 degrees up: coming down onto it
  CHECK(!keeps_landed(0.005f, floor));   // 9 degrees: beside it
  CHECK(!keeps_landed(0.f, floor));      // flat
}

TEST_CASE("landing filter: neighbours that come level within a step land beside it, not onto it") {
  // A folded disc landing flat: its upper layer 6-10 mm over the lower, falling 16 mm a tick. Held, the lower
  // layer's landed vertices had the crease links crushed into the floor (0.23 J stored in one solve).
  const std::vector<Collider> floor = {Collider{}};
  CHECK(keeps_landed(0.025f, floor, 0.01f));    // 40 degrees up, 1 cm a step: still coming down onto it
  CHECK(!keeps_landed(0.025f, floor, 0.03f));   // 3 cm a step: level with it within the step
}

TEST_CASE("landing filter: a vertex touching a device's collider keeps its contact") {
  std::vector<Collider> colliders = {Collider{}};
  Collider palm;
  palm.shape = ColliderShape::Sphere;
  palm.radius = 0.04f;
  palm.follows = Device::LeftHand;
  palm.pose.position = glm::vec3(0.f, kThickness + 0.04f + 0.001f, 0.f);
  colliders.push_back(palm);
  CHECK(keeps_landed(0.f, colliders));
}
