#include <doctest/doctest.h>

#include "sim/cloth_model.h"
#include "sim/mesh_generators.h"
#include "sim/vertex_colouring.h"

using namespace weft;

namespace {
// Every vertex appears once in `order`, under its own colour.
void check_partition(const VertexColouring& c, size_t n) {
  REQUIRE(c.order.size() == n);
  std::vector<int> seen(n, 0);
  for (size_t k = 0; k + 1 < c.colour_offset.size(); ++k)
    for (uint32_t p = c.colour_offset[k]; p < c.colour_offset[k + 1]; ++p) {
      CHECK(c.colour[c.order[p]] == k);
      ++seen[c.order[p]];
    }
  for (int s : seen) CHECK(s == 1);
}
}  // namespace

TEST_CASE("vertex colouring: no link joins two vertices of one colour, on grids and an irregular mesh") {
  for (const Mesh& mesh : {make_grid({.columns = 16, .rows = 9}), make_grid({.columns = 40, .rows = 40}),
                           make_irregular({.columns = 23, .rows = 17, .seed = 7})}) {
    const ClothModel model = build_cloth_model(mesh, {});
    const VertexColouring c = colour_vertices(model.vertex_count(), model.link);
    CHECK(colouring_conflicts(c, model.link) == 0);
    check_partition(c, model.vertex_count());
    // edges + bending pairs of a triangle mesh: a handful of colours, not one per vertex
    CHECK(c.colour_count() >= 4);
    CHECK(c.colour_count() <= 16);
  }
}

TEST_CASE("vertex colouring: a hand-checked fan and a detected conflict") {
  // vertex 0 joined to 1..4, and the rim 1-2-3-4-1: 0 needs its own colour, the rim cycle two more
  const std::vector<std::array<uint32_t, 2>> links = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {2, 3}, {3, 4}, {4, 1}};
  VertexColouring c = colour_vertices(5, links);
  CHECK(colouring_conflicts(c, links) == 0);
  CHECK(c.colour_count() == 3);
  CHECK(c.colour[0] == 0);
  CHECK(c.colour[1] == c.colour[3]);
  c.colour[2] = c.colour[1];  // break it: links 1-2 and 2-3 now conflict
  CHECK(colouring_conflicts(c, links) == 2);
}
