#include <doctest/doctest.h>

#include "engine/ray_pick.h"

namespace weft {

TEST_CASE("ray pick returns the nearest triangle hit, from either side, and misses cleanly") {
  // Two unit triangles stacked at y = 0 and y = 1.
  const std::vector<glm::vec3> x = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}, {1, 1, 0}, {0, 1, 1}};
  const std::vector<std::array<uint32_t, 3>> tris = {{0, 1, 2}, {3, 4, 5}};
  const auto down = pick_triangle({{0.2f, 5.f, 0.2f}, {0, -1, 0}}, x, tris);
  REQUIRE(down);
  CHECK(down->triangle == 1);
  CHECK(down->distance == doctest::Approx(4.f));
  CHECK(down->point.y == doctest::Approx(1.f));
  CHECK(down->nearest_vertex == 3);
  const auto up = pick_triangle({{0.7f, -2.f, 0.2f}, {0, 1, 0}}, x, tris);  // back face
  REQUIRE(up);
  CHECK(up->triangle == 0);
  CHECK(up->nearest_vertex == 1);
  CHECK_FALSE(pick_triangle({{0.8f, 5.f, 0.8f}, {0, -1, 0}}, x, tris));  // outside (u + v > 1)
  CHECK_FALSE(pick_triangle({{0.2f, 5.f, 0.2f}, {0, 1, 0}}, x, tris));   // pointing away
}

}  // namespace weft
