#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "sim/mesh_generators.h"
#include "sim/planar_seed.h"
#include "sim/world.h"
#include "pose_samples.h"

using namespace weft;
using namespace weft::test;

TEST_CASE("planar seed: only a flat sheet with gravity in its plane leaves the plane, pins stay, up to 0.1 mm") {
  Mesh mesh = make_grid({.width = 0.5f, .height = 0.5f, .columns = 10, .rows = 10});
  const ClothModel hanging = build_cloth_model(mesh, Material{}, {0});  // the grid lies in x-y: gravity -y in it
  ClothState s = make_rest_state(hanging);
  CHECK(seed_out_of_plane(hanging, s));
  CHECK(s.position[0] == hanging.rest_position[0]);
  float most = 0.f;
  for (size_t i = 0; i < s.position.size(); ++i) {
    CHECK(s.position[i].x == hanging.rest_position[i].x);
    most = std::max(most, std::abs(s.position[i].z - hanging.rest_position[i].z));
  }
  CHECK(most > 0.5e-4f);
  CHECK(most <= 1e-4f);
  for (auto& p : mesh.positions) p = glm::vec3(p.x, 0.5f, p.y);  // lying flat: gravity across it
  const ClothModel lying = build_cloth_model(mesh, Material{});
  ClothState flat = make_rest_state(lying);
  CHECK_FALSE(seed_out_of_plane(lying, flat));
}

TEST_CASE("planar seed: a hanging sheet whose bottom corners two hands lift in its plane falls back after the release") {
  // tracker_corner.json's case: pinned by its top corners, the bottom corners lifted 0.3 m in the sheet's
  // plane and let go. Exactly flat, it stood in compression above its pins for good (top row 7 cm over them).
  const float size = 0.5f;
  Mesh mesh = make_irregular({.width = size, .height = size, .columns = 16, .rows = 16, .jitter = 0.3f, .seed = 7});
  for (auto& p : mesh.positions) p = glm::vec3(p.x - 0.5f * size, 1.f + p.y, 0.f);
  uint32_t top_left = 0, top_right = 0, bottom_left = 0, bottom_right = 0;
  auto score = [&](uint32_t i, float sx, float sy) { return sx * mesh.positions[i].x + sy * mesh.positions[i].y; };
  for (uint32_t i = 0; i < mesh.positions.size(); ++i) {
    if (score(i, -1, 1) > score(top_left, -1, 1)) top_left = i;
    if (score(i, 1, 1) > score(top_right, 1, 1)) top_right = i;
    if (score(i, -1, -1) > score(bottom_left, -1, -1)) bottom_left = i;
    if (score(i, 1, -1) > score(bottom_right, 1, -1)) bottom_right = i;
  }
  World w(build_cloth_model(mesh, Material{}, {top_left, top_right}), WorldConfig{});
  const glm::vec3 left = w.state().position[bottom_left], right = w.state().position[bottom_right];
  REQUIRE(w.grab(Hand::Left, at(left), 0.04f) > 0);
  REQUIRE(w.grab(Hand::Right, at(right), 0.04f) > 0);
  const float pins_y = w.state().position[top_left].y;
  while (w.state().time < 4.0) {
    const double t = w.state().time;
    const glm::vec3 lift(0.f, 0.3f * float(std::clamp((t - 0.2) / 1.0, 0.0, 1.0)), 0.f);
    w.submit_pose(sample(Device::LeftHand, t, left + lift));
    w.submit_pose(sample(Device::RightHand, t, right + lift));
    if (std::abs(t - 1.5) < 0.5 * w.time_step()) {
      w.release(Hand::Left);
      w.release(Hand::Right);
    }
    w.step();
  }
  float lowest = INFINITY, highest = -INFINITY;
  for (const glm::vec3& p : w.state().position) {
    lowest = std::min(lowest, p.y);
    highest = std::max(highest, p.y);
  }
  MESSAGE("2.5 s after the release: lowest vertex " << lowest << " m, highest " << highest << " m (pins at " << pins_y
                                                    << ")");
  CHECK(lowest < pins_y - 0.4f);    // hangs again (rest height 0.5 m)
  CHECK(highest < pins_y + 0.01f);  // nothing stands above the pins
}
