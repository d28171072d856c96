#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/mesh_cut.h"
#include "sim/mesh_generators.h"
#include "sim/topology.h"

using namespace weft;

namespace {
double total_area(const Mesh& m) {
  double a = 0;
  for (size_t t = 0; t < m.triangle_count(); ++t) a += triangle_area(m, t);
  return a;
}
// Connected pieces through shared edges.
size_t pieces(const Mesh& m) {
  std::vector<uint32_t> parent(m.vertex_count());
  std::iota(parent.begin(), parent.end(), 0u);
  auto root = [&](uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (const auto& t : m.triangles) parent[root(t[0])] = root(t[1]), parent[root(t[1])] = root(t[2]);
  size_t count = 0;
  for (uint32_t i = 0; i < m.vertex_count(); ++i) count += root(i) == i;
  return count;
}
float min_area(const Mesh& m) {
  float a = INFINITY;
  for (size_t t = 0; t < m.triangle_count(); ++t) a = std::min(a, triangle_area(m, t));
  return a;
}
size_t lone_vertices(const Mesh& m) {
  std::vector<uint8_t> used(m.vertex_count(), 0);
  for (const auto& t : m.triangles) used[t[0]] = used[t[1]] = used[t[2]] = 1;
  return size_t(std::count(used.begin(), used.end(), 0));
}
// 0.4 m grid in z = 0, 10 x 10 quads of 4 cm.
Mesh grid() { return make_grid({.width = 0.4f, .height = 0.4f, .columns = 10, .rows = 10}); }
}  // namespace

TEST_CASE("a cut right across a grid parts it in two with the area kept") {
  const Mesh m = grid();
  MeshEdit e;
  // Across at y = 0.21 (between rows, not on a vertex), blade reaching past both borders.
  REQUIRE(cut_mesh(m, build_topology(m), m.positions.data(), {-0.1f, 0.21f, 0.f}, {0.5f, 0.21f, 0.f}, 0.02f, e) == nullptr);
  CHECK(validate_mesh(e.mesh) == "");
  CHECK(pieces(e.mesh) == 2);
  CHECK(std::abs(total_area(e.mesh) - total_area(m)) < 1e-6 * total_area(m));
  CHECK(e.vertices_added > 0);
  CHECK(e.triangles_added > 0);
  CHECK(lone_vertices(e.mesh) == 0);
  CHECK(e.origin.size() == e.mesh.vertex_count());
  // the new vertices lie where the path crosses the edges, in the rest shape too
  for (size_t i = m.vertex_count(); i < e.mesh.vertex_count(); ++i)
    CHECK(e.mesh.positions[i].y == doctest::Approx(0.21f).epsilon(1e-5));
  CHECK(e.triangle_parent.size() == e.mesh.triangle_count());
  // no sliver: every new triangle keeps at least kCutSnap^2 / 2 of a grid triangle's area
  CHECK(min_area(e.mesh) >= 0.5f * kCutSnap * kCutSnap * 0.5f * 0.04f * 0.04f);
}

TEST_CASE("a cut that stops inside the cloth opens a slit and leaves it one piece") {
  const Mesh m = grid();
  MeshEdit e;
  REQUIRE(cut_mesh(m, build_topology(m), m.positions.data(), {0.1f, 0.21f, 0.f}, {0.3f, 0.21f, 0.f}, 0.01f, e) == nullptr);
  CHECK(validate_mesh(e.mesh) == "");
  CHECK(pieces(e.mesh) == 1);
  const Topology before = build_topology(m), after = build_topology(e.mesh);
  const auto border = [](const Topology& t) { return std::count(t.boundary_edge.begin(), t.boundary_edge.end(), 1); };
  CHECK(border(after) > border(before) + 8);  // both lips of a 0.2 m slit (5+ edges each) are border now
}

TEST_CASE("consecutive segments of a stroke continue one cut: the cloth parts") {
  const Mesh m = grid();
  Mesh cur = m;
  std::vector<glm::vec3> x = m.positions;
  const glm::vec3 stroke[] = {{-0.05f, 0.13f, 0.f}, {0.09f, 0.17f, 0.f}, {0.2f, 0.23f, 0.f}, {0.31f, 0.2f, 0.f},
                              {0.45f, 0.27f, 0.f}};
  for (int k = 0; k + 1 < 5; ++k) {
    MeshEdit e;
    REQUIRE(cut_mesh(cur, build_topology(cur), x.data(), stroke[k], stroke[k + 1], 0.01f, e) == nullptr);
    REQUIRE(validate_mesh(e.mesh) == "");
    CHECK(lone_vertices(e.mesh) == 0);
    cur = e.mesh;
    x = cur.positions;
  }
  CHECK(pieces(cur) == 2);
  CHECK(std::abs(total_area(cur) - total_area(m)) < 1e-5 * total_area(m));
}

TEST_CASE("a crossing near a vertex snaps onto it: no sliver, no lone vertex") {
  const Mesh m = grid();
  MeshEdit e;
  // 1 mm above the row y = 0.2: every vertical crossing lies 2.5 % from a row vertex
  REQUIRE(cut_mesh(m, build_topology(m), m.positions.data(), {-0.1f, 0.201f, 0.f}, {0.5f, 0.201f, 0.f}, 0.02f, e) == nullptr);
  CHECK(validate_mesh(e.mesh) == "");
  CHECK(pieces(e.mesh) == 2);
  CHECK(min_area(e.mesh) >= 0.5f * 0.04f * 0.04f * 0.9f);  // only whole grid triangles: nothing split
  // Cutting off a corner so close to it that the corner triangle would be a sliver: the path snaps, the
  // corner stays attached or leaves whole; no vertex is left alone.
  MeshEdit c;
  const char* why = cut_mesh(m, build_topology(m), m.positions.data(), {0.38f, -0.01f, 0.f}, {0.41f, 0.005f, 0.f}, 0.01f, c);
  if (why == nullptr) {
    CHECK(validate_mesh(c.mesh) == "");
    CHECK(lone_vertices(c.mesh) == 0);
  }
}

TEST_CASE("a cut on an irregular mesh and on a disc keeps the mesh valid and the area") {
  for (const Mesh& m : {make_irregular({.width = 0.5f, .height = 0.5f, .columns = 14, .rows = 14}),
                        make_annulus({.inner_radius = 0.f, .outer_radius = 0.25f, .rings = 8})}) {
    MeshEdit e;
    REQUIRE(cut_mesh(m, build_topology(m), m.positions.data(), {-0.1f, 0.23f, 0.f}, {0.6f, 0.27f, 0.f}, 0.02f, e) == nullptr);
    CHECK(validate_mesh(e.mesh) == "");
    CHECK(pieces(e.mesh) == 2);
    CHECK(lone_vertices(e.mesh) == 0);
    CHECK(std::abs(total_area(e.mesh) - total_area(m)) < 1e-5 * total_area(m));
  }
}

TEST_CASE("a blade that misses, has no length or runs along the normal cuts nothing") {
  const Mesh m = grid();
  MeshEdit e;
  CHECK(cut_mesh(m, build_topology(m), m.positions.data(), {0.f, 0.21f, 0.5f}, {0.4f, 0.21f, 0.5f}, 0.02f, e) != nullptr);
  CHECK(cut_mesh(m, build_topology(m), m.positions.data(), {0.1f, 0.1f, 0.f}, {0.1f, 0.1f, 0.f}, 0.02f, e) != nullptr);
  CHECK(cut_mesh(m, build_topology(m), m.positions.data(), {0.1f, 0.1f, -0.1f}, {0.1f, 0.1f, 0.1f}, 0.02f, e) != nullptr);
  CHECK(cut_mesh(m, build_topology(m), m.positions.data(), {0.f, 0.21f, 0.f}, {0.4f, 0.21f, 0.f}, NAN, e) != nullptr);
}

TEST_CASE("a blade exactly along a row of vertices or along quad diagonals parts the cloth along its edges") {
  const Mesh m = grid();
  for (const auto& [from, to] : {std::pair{glm::vec3(-0.1f, 0.2f, 0.f), glm::vec3(0.5f, 0.2f, 0.f)},
                                 std::pair{glm::vec3(-0.1f, -0.1f, 0.f), glm::vec3(0.5f, 0.5f, 0.f)},
                                 std::pair{glm::vec3(0.2f, -0.1f, 0.f), glm::vec3(0.2f, 0.5f, 0.f)}}) {
    MeshEdit e;
    REQUIRE(cut_mesh(m, build_topology(m), m.positions.data(), from, to, 0.02f, e) == nullptr);
    CHECK(validate_mesh(e.mesh) == "");
    CHECK(pieces(e.mesh) == 2);
    CHECK(lone_vertices(e.mesh) == 0);
    CHECK(min_area(e.mesh) >= 0.5f * kCutSnap * kCutSnap * 0.5f * 0.04f * 0.04f);
    CHECK(std::abs(total_area(e.mesh) - total_area(m)) < 1e-5 * total_area(m));
  }
}
