#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "engine/mesh_io.h"
#include "sim/mesh_generators.h"

using namespace weft;

namespace {
std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = std::string(WEFT_BINARY_DIR) + "/mesh_io_" + name + ".obj";
  std::ofstream(path) << text;
  return path;
}

// Loads text as an OBJ and returns the error message ("" when it loaded).
std::string load_error(const std::string& name, const std::string& text) {
  const std::string path = write_temp(name, text);
  try {
    load_obj_mesh(path);
  } catch (const MeshFileError& e) {
    const std::string msg = e.what();
    CHECK(msg.find(path) != std::string::npos);  // every message names the file
    return msg;
  }
  return "";
}
}  // namespace

TEST_CASE("OBJ errors name the file and the problem") {
  CHECK(load_error("empty", "").find("no vertices") != std::string::npos);
  CHECK(load_error("nofaces", "v 0 0 0\nv 1 0 0\nv 0 1 0\n").find("no triangles") != std::string::npos);
  CHECK(load_error("nan", "v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n").find("nan.obj:2: 'nan' is not a finite number") !=
        std::string::npos);
  CHECK(load_error("inf", "v 0 0 0\nv 1e40 0 0\nv 0 1 0\nf 1 2 3\n").find("inf.obj:2:") != std::string::npos);
  CHECK(load_error("short", "v 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n").find("too few") != std::string::npos);
  // a bad index names its line (issue 16, item 7)
  CHECK(load_error("badindex", "v 0 0 0\nv 1 0 0\nv 0 1 0\n# faces\nf 1 2 7\n").find("badindex.obj:5: face refers to vertex 7") !=
        std::string::npos);
  CHECK(load_error("badindex2", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf -1 -2 -4\n").find("badindex2.obj:5:") !=
        std::string::npos);
  CHECK(load_error("degenerate", "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n").find("degenerate.obj:4: triangle 1 is degenerate") !=
        std::string::npos);
  CHECK(load_error("nonmanifold", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\nf 1 2 3\nf 2 1 4\nf 1 2 5\n")
            .find("non-manifold") != std::string::npos);
  const std::string missing = std::string(WEFT_BINARY_DIR) + "/no_such_file.obj";
  try {
    load_obj_mesh(missing);
    FAIL("a missing file must throw");
  } catch (const MeshFileError& e) {
    CHECK(std::string(e.what()).find("cannot open") != std::string::npos);
  }
}

TEST_CASE("OBJ round trip keeps positions, material coordinates and triangles") {
  const Mesh mesh = make_irregular({.columns = 6, .rows = 5, .seed = 9});
  const std::string path = std::string(WEFT_BINARY_DIR) + "/mesh_io_roundtrip.obj";
  save_obj_mesh(mesh, path);
  const Mesh back = load_obj_mesh(path);
  REQUIRE(back.vertex_count() == mesh.vertex_count());
  REQUIRE(back.triangle_count() == mesh.triangle_count());
  for (size_t i = 0; i < mesh.vertex_count(); ++i) {
    CHECK(glm::length(back.positions[i] - mesh.positions[i]) < 1e-6f);
    CHECK(glm::length(back.material[i] - mesh.material[i]) < 1e-6f);
  }
  CHECK(back.triangles == mesh.triangles);
}

TEST_CASE("OBJ without vt gets planar material coordinates from its widest axes") {
  const Mesh m = load_obj_mesh(write_temp("novt", "v 0 1 0\nv 2 1 0\nv 0 1 3\nf 1 2 3\n"));
  REQUIRE(m.material.size() == 3);
  CHECK(m.material[1].x == doctest::Approx(2.f));
  CHECK(m.material[2].y == doctest::Approx(3.f));
}

TEST_CASE("the shipped irregular cloth loads") {
  const Mesh m = load_obj_mesh(std::string(WEFT_SOURCE_DIR) + "/assets/meshes/irregular_cloth.obj");
  CHECK(m.vertex_count() == 625);
  float amin = 1e9f, amax = 0;
  for (size_t t = 0; t < m.triangle_count(); ++t) {
    amin = std::min(amin, triangle_area(m, t));
    amax = std::max(amax, triangle_area(m, t));
  }
  CHECK(amax / amin >= 3.f);
}

TEST_CASE("OBJ line elements are named lines, and the vertices only they use are not cloth") {
  // A quad (4 vertices), then an object of loose edges with its own copies of the right border, as Blender
  // exports them, then a line on the quad's own vertices in a group.
  const std::string path = write_temp("lines", R"(v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
f 1 2 3
f 1 3 4
o right_side
v 1 0 0
v 1 1 0
l 5 6
g top
l 3 4
)");
  std::vector<MeshLine> lines;
  const Mesh m = load_obj_mesh(path, nullptr, true, &lines);
  CHECK(m.vertex_count() == 4);  // the line object's copies left out
  CHECK(m.triangle_count() == 2);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].name == "right_side");
  REQUIRE(lines[0].segments.size() == 1);
  CHECK(lines[0].segments[0][0] == glm::vec3(1, 0, 0));
  CHECK(lines[0].segments[0][1] == glm::vec3(1, 1, 0));
  CHECK(lines[1].name == "top");
  CHECK(lines[1].segments[0][0] == glm::vec3(1, 1, 0));
  // a strip `l a b c` is two segments
  std::vector<MeshLine> strip;
  load_obj_mesh(write_temp("strip", "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3\ng edge\nl 1 2 3\n"), nullptr, true, &strip);
  REQUIRE(strip.size() == 1);
  CHECK(strip[0].segments.size() == 2);
}
