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

TEST_CASE("tether lengths equal Dijkstra over the edges: hand-checked grid, Bellman-Ford on an irregular mesh") {
  // 3 x 3 vertices 0.1 m apart, row-major. The alternating diagonals all meet at the centre (edges 0-4,
  // 2-4, 4-6, 4-8), so from corner 0: vertex 4 is one diagonal away, corner 8 two, and vertex 5 a
  // diagonal plus an edge.
  const ClothModel grid = build_cloth_model(make_grid({.width = 0.2f, .height = 0.2f, .columns = 2, .rows = 2}), {});
  const VertexAdjacency adj = build_adjacency(grid);
  TetherScratch scratch;
  scratch.resize(grid);
  Tethers t;
  const uint32_t corner = 0;
  build_tethers(grid, adj, &corner, 1, scratch, t);
  const float d = 0.1f * std::sqrt(2.f);
  CHECK(t.length[2] == doctest::Approx(0.2f));
  CHECK(t.length[6] == doctest::Approx(0.2f));
  CHECK(t.length[4] == doctest::Approx(d));
  CHECK(t.length[5] == doctest::Approx(d + 0.1f));
  CHECK(t.length[8] == doctest::Approx(2 * d));
  for (uint32_t i = 0; i < 9; ++i) CHECK(t.anchor[i] == 0);

  // irregular mesh, two sources
  const ClothModel irr = build_cloth_model(make_irregular({.columns = 9, .rows = 7, .seed = 4}), {});
  const VertexAdjacency adj2 = build_adjacency(irr);
  scratch.resize(irr);
  const uint32_t sources[2] = {0, uint32_t(irr.vertex_count() - 1)};
  build_tethers(irr, adj2, sources, 2, scratch, t);
  const size_t n = irr.vertex_count();
  std::vector<float> plain(n, 1e9f);
  plain[sources[0]] = plain[sources[1]] = 0.f;
  for (size_t round = 0; round < n; ++round)  // Bellman-Ford: the slow, obviously right reference
    for (size_t i = 0; i < n; ++i)
      for (uint32_t k = adj2.offset[i]; k < adj2.offset[i + 1]; ++k) {
        const uint32_t j = adj2.neighbour[k];
        plain[j] = std::min(plain[j], plain[i] + glm::length(irr.rest_position[j] - irr.rest_position[i]));
      }
  for (size_t i = 0; i < n; ++i) CHECK(t.length[i] == doctest::Approx(plain[i]).epsilon(1e-5));
}
