#include <doctest/doctest.h>

#include <cmath>

#include "sim/flat_pieces.h"
#include "sim/mesh_generators.h"
#include "sim/tether.h"

using namespace weft;

namespace {
FlatPieces pieces_of(const Mesh& mesh) {
  const ClothModel model = build_cloth_model(mesh, {});
  return find_flat_pieces(model, build_adjacency(model));
}
}  // namespace

TEST_CASE("flat pieces: grids and irregular rectangles are flat and convex, an L, a bent sheet and a tube are not") {
  const FlatPieces grid = pieces_of(make_grid({.columns = 6, .rows = 4}));
  REQUIRE(grid.flat_convex.size() == 1);
  CHECK(grid.flat_convex[0] == 1);
  CHECK(pieces_of(make_irregular({.columns = 9, .rows = 7, .seed = 4})).flat_convex[0] == 1);
  Mesh tilted = make_grid({.columns = 3, .rows = 3});
  for (glm::vec3& p : tilted.positions) p = glm::vec3(p.x, 0.6f * p.y, 0.8f * p.y);  // a flat sheet at an angle
  CHECK(pieces_of(tilted).flat_convex[0] == 1);

  // L: a 2 x 2-quad grid without its top-right corner vertex and the triangles that used it
  Mesh ell = make_grid({.columns = 2, .rows = 2});
  const uint32_t top_right = 8;
  std::erase_if(ell.triangles, [&](const std::array<uint32_t, 3>& t) {
    return t[0] == top_right || t[1] == top_right || t[2] == top_right;
  });
  ell.positions.pop_back();
  ell.material.pop_back();
  const FlatPieces l = pieces_of(ell);
  REQUIRE(l.flat_convex.size() == 1);
  CHECK(l.flat_convex[0] == 0);

  Mesh bent = make_grid({.columns = 4, .rows = 4});
  for (glm::vec3& p : bent.positions) p.z = p.x > 0.5f ? 0.1f * (p.x - 0.5f) : 0.f;  // folded along x = 0.5
  CHECK(pieces_of(bent).flat_convex[0] == 0);

  // two pieces side by side: each judged on its own
  Mesh two = make_grid({.columns = 2, .rows = 2});
  Mesh other = make_grid({.columns = 2, .rows = 2});
  const uint32_t base = uint32_t(two.positions.size());
  for (size_t i = 0; i < other.positions.size(); ++i) {
    two.positions.push_back(other.positions[i] + glm::vec3(2.f, 0.f, 0.f));
    two.material.push_back(other.material[i] + glm::vec2(2.f, 0.f));
  }
  for (auto t : other.triangles) two.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
  two.positions[base + 4].z = 0.2f;  // the second piece's centre lifted: a tent, not flat
  const FlatPieces p2 = pieces_of(two);
  REQUIRE(p2.flat_convex.size() == 2);
  CHECK(p2.flat_convex[p2.piece[0]] == 1);
  CHECK(p2.flat_convex[p2.piece[base]] == 0);
}

TEST_CASE("straight tethers: on a flat convex piece the straight rest distance to the anchor, elsewhere the edge path") {
  const ClothModel grid = build_cloth_model(make_grid({.width = 0.4f, .height = 0.4f, .columns = 4, .rows = 4}), {});
  const VertexAdjacency adj = build_adjacency(grid);
  const FlatPieces pieces = find_flat_pieces(grid, adj);
  TetherScratch scratch;
  scratch.resize(grid);
  Tethers t;
  const uint32_t corner = 0;
  build_tethers(grid, adj, &corner, 1, scratch, t);
  const std::vector<float> path = t.length;
  straighten_tethers(grid, pieces, t);
  // vertex 7 is (2, 1): 0.1 * sqrt(5) away, along edges 0.1 + 0.1 sqrt(2) at best (alternating diagonals)
  CHECK(t.length[7] == doctest::Approx(0.1f * std::sqrt(5.f)));
  CHECK(path[7] > t.length[7] * 1.04f);
  for (size_t i = 0; i < grid.vertex_count(); ++i) {
    CHECK(t.anchor[i] == 0);
    CHECK(t.length[i] == doctest::Approx(glm::length(grid.rest_position[i] - grid.rest_position[0])));
    CHECK(t.length[i] <= path[i] + 1e-6f);
  }

  Mesh bent = make_grid({.width = 0.4f, .height = 0.4f, .columns = 4, .rows = 4});
  for (glm::vec3& p : bent.positions) p.z = p.x > 0.2f ? 0.5f * (p.x - 0.2f) : 0.f;
  const ClothModel folded = build_cloth_model(bent, {});
  const VertexAdjacency adj2 = build_adjacency(folded);
  build_tethers(folded, adj2, &corner, 1, scratch, t);
  const std::vector<float> path2 = t.length;
  straighten_tethers(folded, find_flat_pieces(folded, adj2), t);
  CHECK(t.length == path2);  // not flat: the edge paths stay
}
