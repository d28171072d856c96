#include <doctest/doctest.h>

#include <array>
#include <fstream>
#include <string>

#include "engine/mesh_check.h"
#include "engine/mesh_io.h"

#include <glm/gtc/matrix_transform.hpp>
#include "sim/mesh_generators.h"
#include "tests/engine/folded_disc.h"

using namespace weft;

namespace {
// Loads OBJ text without validation and checks it.
MeshCheckReport check_text(const std::string& name, const std::string& text) {
  const std::string path = std::string(WEFT_BINARY_DIR) + "/mesh_check_" + name + ".obj";
  std::ofstream(path) << text;
  std::vector<uint32_t> lines;
  const Mesh mesh = load_obj_mesh(path, &lines, false);
  return check_mesh(mesh, lines);
}
const MeshIssue& issue(const MeshCheckReport& r, const std::string& kind) {
  for (const MeshIssue& i : r.issues)
    if (i.kind == kind) return i;
  FAIL("no issue kind " << kind);
  return r.issues[0];
}
// A 2 x 1 strip of four triangles, consistently counter-clockwise seen from +z.
const std::string kStrip = "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nv 1 1 0\nv 2 1 0\n";
}  // namespace

TEST_CASE("mesh check: a clean grid has no issues") {
  const MeshCheckReport r = check_mesh(make_grid({.width = 1.f, .height = 1.f, .columns = 8, .rows = 8}));
  CHECK(r.total() == 0);
  CHECK(r.issues.size() == 5);
}

TEST_CASE("mesh check: a flipped triangle is found with its line") {
  const MeshCheckReport r = check_text("flipped", kStrip + "f 1 2 5\nf 1 5 4\nf 2 5 6\nf 2 3 6\n");  // line 9 clockwise
  const MeshIssue& f = issue(r, "flipped");
  CHECK(f.count == 1);
  REQUIRE(f.examples.size() == 1);
  CHECK(f.examples[0].find("triangle 3 (line 9)") != std::string::npos);
  CHECK(r.total() == 1);
}

TEST_CASE("mesh check: overlapping triangles are found with their lines") {
  // the fourth face lies on top of the first (same plane, shared area, other vertices)
  const MeshCheckReport r =
      check_text("overlap", kStrip + "v 0.2 0.1 0\nv 0.9 0.1 0\nv 0.9 0.6 0\nf 1 2 5\nf 1 5 4\nf 2 3 6\nf 7 8 9\n");
  const MeshIssue& o = issue(r, "overlap");
  CHECK(o.count == 1);
  REQUIRE(o.examples.size() == 1);
  CHECK(o.examples[0].find("triangle 1 (line 10) overlaps triangle 4 (line 13)") != std::string::npos);
  // neighbours that only share an edge do not overlap
  const MeshCheckReport clean = check_text("no_overlap", kStrip + "f 1 2 5\nf 1 5 4\nf 2 6 5\nf 2 3 6\n");
  CHECK(clean.total() == 0);
}

TEST_CASE("mesh check: a non-manifold edge and a sliver are found") {
  const MeshCheckReport r = check_text(
      "nonmanifold", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\nv 0.5 0.01 0\nf 1 2 3\nf 2 1 4\nf 1 2 5\nf 2 6 3\n");
  const MeshIssue& nm = issue(r, "non_manifold_edge");
  CHECK(nm.count == 1);
  REQUIRE(nm.examples.size() == 1);
  CHECK(nm.examples[0].find("edge 1-2") != std::string::npos);
  CHECK(nm.examples[0].find("(line 7)") != std::string::npos);
  const MeshCheckReport s = check_text("sliver", "v 0 0 0\nv 1 0 0\nv 0.5 0.01 0\nv 0.5 1 0\nf 1 2 3\nf 1 3 4\n");
  const MeshIssue& sl = issue(s, "sliver");
  CHECK(sl.count == 1);
  REQUIRE(sl.examples.size() == 1);
  CHECK(sl.examples[0].find("triangle 1 (line 5) is a sliver") != std::string::npos);
  CHECK(issue(s, "degenerate").count == 0);
}

TEST_CASE("mesh check: degenerate triangles are counted, and the examples stop at the limit") {
  std::string text = "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nf 1 2 4\n";
  for (int k = 0; k < 5; ++k) text += "f 1 2 3\n";
  const MeshCheckReport r = check_text("degenerate", text);
  const MeshIssue& d = issue(r, "degenerate");
  CHECK(d.count == 5);
  CHECK(d.examples.size() == 3);
  CHECK(d.examples[0].find("triangle 2 (line 6)") != std::string::npos);
}

TEST_CASE("mesh check: the grid's overlaps are the brute force's, on tangled discs in any orientation") {
  const Mesh folded = test::folded_flat_disc();
  Mesh layers = make_annulus({.inner_radius = 0.f, .outer_radius = 0.2f, .rings = 5, .edge = 0.04f});
  {  // a second copy of the disc, turned a little in its plane, on the first (duplicated layers)
    Mesh copy = layers;
    transform_mesh(copy, glm::rotate(glm::mat4(1.f), 0.3f, glm::vec3(0.f, 0.f, 1.f)));
    const uint32_t base = uint32_t(layers.positions.size());
    for (size_t i = 0; i < copy.positions.size(); ++i) {
      layers.positions.push_back(copy.positions[i]);
      layers.material.push_back(copy.material[i]);
    }
    for (auto t : copy.triangles) layers.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
  }
  Mesh standing = folded;  // on edge, in the x = const plane: all triangles share one x range
  transform_mesh(standing, glm::rotate(glm::mat4(1.f), 1.5707963f, glm::vec3(0.f, 1.f, 0.f)));
  for (const Mesh* m : std::array<const Mesh*, 3>{&folded, &layers, &standing}) {
    const auto grid = overlapping_triangles(*m);
    const auto brute = overlapping_triangles(*m, true);
    CHECK(grid.size() > 50);
    CHECK(grid == brute);
    CHECK(check_mesh(*m).issues[4].count == brute.size());
    CHECK(check_mesh(*m).overlapping_pairs == brute);
  }
  CHECK(overlapping_triangles(make_annulus({})).empty());  // the disc as generated: none
}
