#include <doctest/doctest.h>

#include "sim/mesh_generators.h"
#include "sim/topology.h"

using namespace weft;

TEST_CASE("topology: edges numbered in the order the triangles first name them, each with its two triangles") {
  // Two triangles sharing the edge (1, 2): 0 1 2 gives edges (1,2), (0,2), (0,1); 2 1 3 gives (1,3), (2,3)
  // and finds (1,2) again.
  Mesh mesh;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  mesh.material = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
  mesh.triangles = {{0, 1, 2}, {2, 1, 3}};
  const Topology t = build_topology(mesh);
  REQUIRE(t.edges.size() == 5);
  CHECK(t.edges[0] == std::array<uint32_t, 2>{1, 2});
  CHECK(t.edges[1] == std::array<uint32_t, 2>{0, 2});
  CHECK(t.edges[2] == std::array<uint32_t, 2>{0, 1});
  CHECK(t.edges[3] == std::array<uint32_t, 2>{1, 3});
  CHECK(t.edges[4] == std::array<uint32_t, 2>{2, 3});
  CHECK(t.edge_triangles[0] == std::array<int32_t, 2>{0, 1});
  CHECK(t.edge_triangles[1] == std::array<int32_t, 2>{0, -1});
  CHECK(t.triangle_edges[1][0] == 3);  // opposite corner 2 of (2, 1, 3): (1, 3)
  CHECK(t.triangle_edges[1][2] == 0);  // opposite corner 3: (2, 1), the first edge again
  CHECK(t.bend_pairs.size() == 1);
  CHECK(t.bend_pairs[0] == std::array<uint32_t, 2>{0, 3});
}

TEST_CASE("topology: a grid's every interior edge has two triangles, Euler's count holds") {
  const Mesh mesh = make_grid({.columns = 9, .rows = 7});
  const Topology t = build_topology(mesh);
  // V - E + F = 1 for a disc
  CHECK(int64_t(mesh.positions.size()) - int64_t(t.edges.size()) + int64_t(mesh.triangles.size()) == 1);
  size_t boundary = 0;
  for (size_t e = 0; e < t.edges.size(); ++e) {
    boundary += t.boundary_edge[e];
    CHECK((t.edge_triangles[e][1] < 0) == (t.boundary_edge[e] == 1));
  }
  CHECK(boundary == 2 * (9 + 7));
}
