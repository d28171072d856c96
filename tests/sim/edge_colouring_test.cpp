#include <doctest/doctest.h>

#include "sim/cloth_model.h"
#include "sim/edge_colouring.h"
#include "sim/mesh_generators.h"

using namespace weft;

TEST_CASE("edge colouring: no two edges of one colour share a vertex, on a grid, an irregular mesh and an annulus") {
  for (const Mesh& mesh : {make_grid({.columns = 16, .rows = 9}), make_irregular({.columns = 23, .rows = 17, .seed = 7}),
                           make_annulus({.inner_radius = 0.05f, .outer_radius = 0.2f, .rings = 6, .seed = 3})}) {
    const ClothModel model = build_cloth_model(mesh, {});
    const EdgeColouring c = colour_edges(model);
    CHECK(edge_colouring_conflicts(model, c) == 0);
    // every structural edge once
    REQUIRE(c.order.size() == model.edge_count);
    std::vector<int> seen(model.edge_count, 0);
    for (uint32_t e : c.order) ++seen[e];
    for (int s : seen) CHECK(s == 1);
    // a triangle mesh's degree is about 6: a handful of colours (the GPU limiter's dispatches per sweep)
    CHECK(c.colour_count() >= 3);
    CHECK(c.colour_count() <= 16);
  }
}

TEST_CASE("edge colouring: a conflict is counted") {
  const ClothModel model = build_cloth_model(make_grid({.columns = 4, .rows = 4}), {});
  EdgeColouring c = colour_edges(model);
  REQUIRE(c.colour_count() >= 2);
  // move the first edge of colour 1 into colour 0, where an edge at one of its ends already is
  EdgeColouring bad;
  bad.order = c.order;
  bad.colour_offset = {0, uint32_t(c.order.size())};  // one colour for everything
  CHECK(edge_colouring_conflicts(model, bad) > 0);
}
