#include <doctest/doctest.h>

#include "sim/mesh_edit.h"

using namespace weft;

TEST_CASE("primary copies: each old vertex maps to its lowest-index copy, removed ones to none") {
  MeshEdit e;
  // old vertices 0..3: 0 kept, 1 copied twice (at 1 and 4), 2 removed, 3 kept at 2; vertex 3 new on an edge
  e.origin = {{0, 0, 0.f}, {1, 1, 0.f}, {3, 3, 0.f}, {0, 1, 0.5f}, {1, 1, 0.f}};
  const std::vector<uint32_t> map = primary_copies(e, 4);
  REQUIRE(map.size() == 4);
  CHECK(map[0] == 0);
  CHECK(map[1] == 1);
  CHECK(map[2] == UINT32_MAX);
  CHECK(map[3] == 2);
}

TEST_CASE("carry_triangle_order: each old triangle replaced by the new ones inside it, removed ones gone") {
  MeshEdit e;
  // old triangles 0..3; new 0, 1 lie in old 2, new 2 in old 0, new 3 in old 3; old 1 was removed
  e.triangle_parent = {2, 2, 0, 3};
  const std::vector<uint32_t> order = carry_triangle_order(e, {3, 2, 1, 0});
  CHECK(order == std::vector<uint32_t>{3, 0, 1, 2});
  CHECK(carry_triangle_order(e, {0, 1, 2, 3}) == std::vector<uint32_t>{2, 0, 1, 3});
}
