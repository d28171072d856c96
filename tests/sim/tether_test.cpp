#include <doctest/doctest.h>

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
