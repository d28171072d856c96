#include <doctest/doctest.h>

#include <cmath>

#include "sim/mesh_generators.h"
#include "sim/tether.h"

using namespace weft;

TEST_CASE("tethers give each vertex its nearest held vertex and the edge-path rest length") {
  const ClothModel model = build_cloth_model(make_grid({.width = 0.4f, .height = 0.1f, .columns = 4, .rows = 1}), {});
  const VertexAdjacency adj = build_adjacency(model);
  const uint32_t sources[2] = {0, 4};  // both ends of the bottom row
  Tethers t;
  TetherScratch scratch;
  scratch.resize(model);
  build_tethers(model, adj, sources, 2, scratch, t);
  CHECK(t.anchor[1] == 0);
  CHECK(t.length[1] == doctest::Approx(0.1f));
  CHECK(t.anchor[3] == 4);
  CHECK(t.length[2] == doctest::Approx(0.2f));

  std::vector<glm::vec3> x(model.rest_position), v(model.vertex_count(), glm::vec3(0.f));
  std::vector<uint8_t> kin(model.vertex_count(), 0);
  kin[0] = kin[4] = 1;
  x[1] = {0.5f, 0.f, 0.f};  // far from its anchor at the origin
  v[1] = {1.f, 1.f, 0.f};
  apply_tethers(t, 0.1f, model.inv_mass.data(), kin.data(), x.data(), v.data(), model.vertex_count());
  CHECK(glm::length(x[1]) == doctest::Approx(0.11f));
  CHECK(v[1].x == doctest::Approx(0.f));
  CHECK(v[1].y == doctest::Approx(1.f));
}

TEST_CASE("tether lengths: straight rest distance on a flat sheet, between it and the edge-path Dijkstra elsewhere") {
  // 3 x 3 vertices 0.1 m apart; the edge path from corner 0 to corner 8 zig-zags (>= 0.2 + 0.1 (sqrt2 - 1)),
  // the straight rest distance is 0.2 sqrt 2.
  const ClothModel grid = build_cloth_model(make_grid({.width = 0.2f, .height = 0.2f, .columns = 2, .rows = 2}), {});
  const VertexAdjacency adj = build_adjacency(grid);
  TetherScratch scratch;
  scratch.resize(grid);
  Tethers t;
  const uint32_t corner = 0;
  build_tethers(grid, adj, &corner, 1, scratch, t);
  CHECK(t.length[8] == doctest::Approx(0.2f * std::sqrt(2.f)));
  CHECK(t.length[2] == doctest::Approx(0.2f));
  CHECK(t.length[4] == doctest::Approx(0.1f * std::sqrt(2.f)));

  // irregular mesh, two sources: every length lies between the straight distance and plain Dijkstra
  const ClothModel irr = build_cloth_model(make_irregular({.columns = 9, .rows = 7, .seed = 4}), {});
  const VertexAdjacency adj2 = build_adjacency(irr);
  scratch.resize(irr);
  const uint32_t sources[2] = {0, uint32_t(irr.vertex_count() - 1)};
  build_tethers(irr, adj2, sources, 2, scratch, t);
  const size_t n = irr.vertex_count();
  std::vector<float> plain(n, 1e9f);
  plain[sources[0]] = plain[sources[1]] = 0.f;
  for (size_t round = 0; round < n; ++round)  // Bellman-Ford: the hand-checkable reference
    for (size_t i = 0; i < n; ++i)
      for (uint32_t k = adj2.offset[i]; k < adj2.offset[i + 1]; ++k) {
        const uint32_t j = adj2.neighbour[k];
        plain[j] = std::min(plain[j], plain[i] + glm::length(irr.rest_position[j] - irr.rest_position[i]));
      }
  for (size_t i = 0; i < n; ++i) {
    const float straight = std::min(glm::length(irr.rest_position[i] - irr.rest_position[sources[0]]),
                                    glm::length(irr.rest_position[i] - irr.rest_position[sources[1]]));
    CHECK(t.length[i] <= plain[i] * 1.0001f + 1e-6f);
    CHECK(t.length[i] >= straight * 0.9999f - 1e-6f);
    CHECK(t.length[i] == doctest::Approx(glm::length(irr.rest_position[i] - irr.rest_position[t.anchor[i]])).epsilon(1e-3));
  }
}
