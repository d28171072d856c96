#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/cloth_model.h"
#include "sim/mesh_generators.h"
#include "sim/topology.h"

using namespace weft;

TEST_CASE("validate_mesh names each problem") {
  Mesh ok = make_grid({.columns = 2, .rows = 2});
  CHECK(validate_mesh(ok).empty());
  CHECK(validate_mesh(Mesh{}) == "mesh has no vertices");
  Mesh m = ok;
  m.triangles.clear();
  CHECK(validate_mesh(m) == "mesh has no triangles");
  m = ok;
  m.positions[3].y = NAN;
  CHECK(validate_mesh(m).find("non-finite") != std::string::npos);
  m = ok;
  m.triangles[0][1] = 99;
  CHECK(validate_mesh(m).find("refers to vertex 100") != std::string::npos);
  m = ok;
  m.triangles[0][1] = m.triangles[0][0];
  CHECK(validate_mesh(m).find("degenerate") != std::string::npos);
  m = ok;
  m.triangles.push_back(m.triangles[0]);  // a third triangle on the same edges
  CHECK(validate_mesh(m).find("non-manifold") != std::string::npos);
}

TEST_CASE("grid topology: Euler's formula, interior edges carry bending pairs, boundary marked") {
  const uint32_t c = 5, r = 4;
  const Mesh m = make_grid({.columns = c, .rows = r});
  const Topology t = build_topology(m);
  CHECK(m.vertex_count() == (c + 1) * (r + 1));
  CHECK(m.triangle_count() == 2 * c * r);
  CHECK(m.vertex_count() - t.edges.size() + m.triangle_count() == 1);  // a disc
  size_t boundary_edges = 0;
  for (uint8_t b : t.boundary_edge) boundary_edges += b;
  CHECK(boundary_edges == 2 * (c + r));
  CHECK(t.bend_pairs.size() == t.edges.size() - boundary_edges);
  size_t boundary_vertices = 0;
  for (uint8_t b : t.boundary_vertex) boundary_vertices += b;
  CHECK(boundary_vertices == 2 * (c + r));
  for (size_t tri = 0; tri < m.triangle_count(); ++tri)
    for (int k = 0; k < 3; ++k) {
      // the edge opposite corner k joins the two other corners
      const auto e = t.edges[t.triangle_edges[tri][k]];
      const uint32_t a = m.triangles[tri][(k + 1) % 3], b = m.triangles[tri][(k + 2) % 3];
      CHECK(((e[0] == a && e[1] == b) || (e[0] == b && e[1] == a)));
    }
}

TEST_CASE("irregular mesh: jittered, mixed diagonals, triangle areas vary by at least 3x") {
  const Mesh m = make_irregular({.columns = 16, .rows = 16, .seed = 2});
  CHECK(validate_mesh(m).empty());
  float amin = 1e9f, amax = 0;
  for (size_t t = 0; t < m.triangle_count(); ++t) {
    amin = std::min(amin, triangle_area(m, t));
    amax = std::max(amax, triangle_area(m, t));
  }
  CHECK(amax / amin >= 3.f);
  // Both diagonal directions occur.
  int first = 0, second = 0;
  for (size_t q = 0; q < m.triangle_count(); q += 2) {
    const auto& tri = m.triangles[q];
    (tri[2] == tri[0] + 17 + 1 ? second : first) += 1;  // stride 17: {a, b, e} is the unflipped quad
  }
  CHECK(first > 20);
  CHECK(second > 20);
  // Same seed, same mesh.
  const Mesh again = make_irregular({.columns = 16, .rows = 16, .seed = 2});
  CHECK(again.positions == m.positions);
}

TEST_CASE("annulus and disc: rings zipped into a valid surface, not a grid") {
  for (float inner : {0.12f, 0.f}) {
    CAPTURE(inner);
    const Mesh m = make_annulus({.inner_radius = inner, .outer_radius = 0.4f, .rings = 10, .edge = 0.035f, .seed = 3});
    REQUIRE(validate_mesh(m).empty());
    const Topology t = build_topology(m);
    // Euler characteristic: 0 for a ring, 1 for a disc (and no hole left unzipped).
    CHECK(long(m.vertex_count()) - long(t.edges.size()) + long(m.triangle_count()) == (inner > 0.f ? 0 : 1));
    float area = 0.f;
    int valence_min = 99, valence_max = 0;
    std::vector<int> valence(m.vertex_count(), 0);
    for (const auto& e : t.edges) { ++valence[e[0]]; ++valence[e[1]]; }
    for (size_t i = 0; i < m.vertex_count(); ++i)
      if (!t.boundary_vertex[i]) { valence_min = std::min(valence_min, valence[i]); valence_max = std::max(valence_max, valence[i]); }
    for (size_t tri = 0; tri < m.triangle_count(); ++tri) {
      const auto& v = m.triangles[tri];
      const glm::vec3 n = glm::cross(m.positions[v[1]] - m.positions[v[0]], m.positions[v[2]] - m.positions[v[0]]);
      CHECK(n.z > 0.f);  // counter-clockwise seen from +z: no flipped or folded triangle
      area += 0.5f * n.z;
    }
    const float pi = 3.14159265f, ring = pi * (0.4f * 0.4f - inner * inner);
    CHECK(area == doctest::Approx(ring).epsilon(0.03));  // polygonal rings cut a little off the circles
    CHECK(valence_max > valence_min);  // irregular connectivity: not every interior vertex alike
  }
}

TEST_CASE("strip: graded cross-sections zipped into a valid surface, not a grid") {
  const Mesh m = make_strip({.length = 1.f, .width = 0.2f, .edge_start = 0.015f, .edge_end = 0.045f, .seed = 3});
  REQUIRE(validate_mesh(m).empty());
  const Topology t = build_topology(m);
  // Euler characteristic 1: one piece, no hole.
  CHECK(long(m.vertex_count()) - long(t.edges.size()) + long(m.triangle_count()) == 1);
  float area = 0.f, shortest = 1e9f, longest = 0.f;
  for (const auto& v : m.triangles) {
    const glm::vec3 n = glm::cross(m.positions[v[1]] - m.positions[v[0]], m.positions[v[2]] - m.positions[v[0]]);
    CHECK(n.z > 0.f);  // counter-clockwise seen from +z: no flipped or folded triangle
    area += 0.5f * n.z;
  }
  for (const auto& e : t.edges) {
    const float l = glm::length(m.positions[e[1]] - m.positions[e[0]]);
    shortest = std::min(shortest, l);
    longest = std::max(longest, l);
  }
  CHECK(area == doctest::Approx(0.2f).epsilon(1e-4));  // straight sides: the exact rectangle
  CHECK(longest > 3.f * shortest);                     // non-uniform: fine at one end, coarse at the other
  std::vector<int> valence(m.vertex_count(), 0);
  for (const auto& e : t.edges) { ++valence[e[0]]; ++valence[e[1]]; }
  int valence_min = 99, valence_max = 0;
  for (size_t i = 0; i < m.vertex_count(); ++i)
    if (!t.boundary_vertex[i]) { valence_min = std::min(valence_min, valence[i]); valence_max = std::max(valence_max, valence[i]); }
  CHECK(valence_max > valence_min);  // cross-sections of different counts: not every interior vertex alike
  CHECK(make_strip({.seed = 3}).positions == m.positions);  // same seed, same mesh
}

TEST_CASE("lumped masses add up to area x density, and total_mass overrides density") {
  const Mesh m = make_irregular({.width = 2.f, .height = 0.5f, .columns = 8, .rows = 6});
  Material mat;
  mat.areal_density = 0.2f;
  const ClothModel model = build_cloth_model(m, mat);
  CHECK(model.total_mass() == doctest::Approx(0.2f * 1.f).epsilon(1e-4));
  mat.total_mass = 0.05f;
  CHECK(build_cloth_model(m, mat).total_mass() == doctest::Approx(0.05f).epsilon(1e-4));
  mat.alpha = 2.f;
  CHECK_THROWS_WITH_AS(build_cloth_model(m, mat), "material: alpha must lie in [0, 1.2]", std::invalid_argument);
}

TEST_CASE("cone panel: the irregular sheet on the cone, its flat pattern as material coordinates, unstretched") {
  const ConePanelSpec spec{.sheet = {.width = 0.8f, .height = 0.4f, .columns = 16, .rows = 8, .seed = 3},
                           .bottom_radius = 0.3f, .top_radius = 0.15f};
  const Mesh m = make_cone_panel(spec);
  CHECK(validate_mesh(m).empty());
  for (size_t i = 0; i < m.vertex_count(); ++i) {
    const glm::vec3 p = m.positions[i];
    const float r = 0.3f - 0.15f * p.y / 0.4f;  // on the cone at its height
    CHECK(std::sqrt(p.x * p.x + p.z * p.z) == doctest::Approx(r).epsilon(1e-4));
    CHECK(p.z > 0.f);  // centred on +z, spanning 0.8 / 0.3 rad < pi
  }
  // every edge's 3D length close to its length in the pattern: the panel lies where it rests
  const Topology t = build_topology(m);
  float worst = 0.f;
  for (const auto& e : t.edges) {
    const float l3 = glm::length(m.positions[e[0]] - m.positions[e[1]]);
    const float l2 = glm::length(m.material[e[0]] - m.material[e[1]]);
    worst = std::max(worst, std::abs(l3 / l2 - 1.f));
  }
  MESSAGE("worst edge length mismatch " << worst);
  CHECK(worst < 0.01f);
}
