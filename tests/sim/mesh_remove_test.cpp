#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "sim/mesh_generators.h"
#include "sim/mesh_remove.h"

using namespace weft;

TEST_CASE("removing inside a brush drops the triangles there and the vertices left on none") {
  const Mesh m = make_grid({.width = 0.4f, .height = 0.4f, .columns = 10, .rows = 10});
  MeshEdit e;
  REQUIRE(remove_in_brush(m, m.positions.data(), {0.2f, 0.2f, 0.f}, 0.05f, e) == nullptr);
  CHECK(validate_mesh(e.mesh) == "");
  CHECK(e.triangles_removed > 0);
  CHECK(e.vertices_removed > 0);
  CHECK(e.mesh.triangle_count() + e.triangles_removed == m.triangle_count());
  CHECK(e.mesh.vertex_count() + e.vertices_removed == m.vertex_count());
  for (size_t t = 0; t < e.mesh.triangle_count(); ++t) {
    const auto& tri = e.mesh.triangles[t];
    const glm::vec3 c = (e.mesh.positions[tri[0]] + e.mesh.positions[tri[1]] + e.mesh.positions[tri[2]]) / 3.f;
    CHECK(glm::length(c - glm::vec3(0.2f, 0.2f, 0.f)) > 0.05f);
  }
  std::vector<uint8_t> used(e.mesh.vertex_count(), 0);
  for (const auto& t : e.mesh.triangles) used[t[0]] = used[t[1]] = used[t[2]] = 1;
  CHECK(std::count(used.begin(), used.end(), 0) == 0);
  // the kept vertices keep their order and where they came from
  for (size_t i = 1; i < e.origin.size(); ++i) CHECK(e.origin[i].a > e.origin[i - 1].a);
}

TEST_CASE("removing every triangle or none is refused") {
  const Mesh m = make_grid({.width = 0.4f, .height = 0.4f, .columns = 4, .rows = 4});
  MeshEdit e;
  CHECK(std::string(remove_in_brush(m, m.positions.data(), {0.2f, 0.2f, 0.f}, 1.f, e)) == "would remove the whole cloth");
  CHECK(std::string(remove_in_brush(m, m.positions.data(), {2.f, 2.f, 0.f}, 0.1f, e)) == "nothing inside the brush");
  CHECK(remove_in_brush(m, m.positions.data(), {0.2f, 0.2f, 0.f}, -1.f, e) != nullptr);
}

TEST_CASE("crumbs: pieces under the area bound go, the largest piece always stays") {
  // a grid and, beside it, one tiny triangle of its own
  MeshEdit e;
  e.mesh = make_grid({.width = 0.4f, .height = 0.4f, .columns = 4, .rows = 4});
  const uint32_t n = uint32_t(e.mesh.vertex_count()), ntri = uint32_t(e.mesh.triangle_count());
  for (const glm::vec3& p : {glm::vec3(1, 1, 0), glm::vec3(1.001f, 1, 0), glm::vec3(1, 1.001f, 0)}) {
    e.mesh.positions.push_back(p);
    e.mesh.material.push_back(glm::vec2(p));
  }
  e.mesh.triangles.push_back({n, n + 1, n + 2});
  for (uint32_t i = 0; i < n + 3; ++i) e.origin.push_back({i, i, 0.f});
  for (uint32_t t = 0; t <= ntri; ++t) e.triangle_parent.push_back(t);
  CHECK(drop_crumbs(e, 1e-4f) == 1);
  CHECK(e.mesh.vertex_count() == n);
  CHECK(e.mesh.triangle_count() == ntri);
  CHECK(e.vertices_removed == 3);
  CHECK(e.triangles_removed == 1);
  CHECK(e.origin.size() == n);
  CHECK(validate_mesh(e.mesh) == "");
  // a bound above every piece keeps the largest
  CHECK(drop_crumbs(e, 10.f) == 0);
  CHECK(e.mesh.triangle_count() == ntri);
}
