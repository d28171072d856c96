#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/gltf_mesh.h"
#include "engine/scene_loader.h"
#include "sim/cloth_model.h"
#include "sim/mesh_generators.h"

using namespace weft;

namespace {

const std::filesystem::path kDir = std::filesystem::temp_directory_path() / "weft_gltf_mesh_test";

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A small mesh written as glTF, its JSON changed by `edit`, written back; returns the loader's error.
template <class Edit>
std::string error_after(const std::string& name, Edit edit) {
  std::filesystem::create_directories(kDir);
  const std::string path = (kDir / name).string();
  save_gltf_mesh(make_grid({.width = 0.2f, .height = 0.2f, .columns = 2, .rows = 2}), path);
  nlohmann::json j = nlohmann::json::parse(read_text(path));
  edit(j);
  std::ofstream(path) << j.dump();
  try {
    load_gltf_mesh(path);
  } catch (const MeshFileError& e) {
    CHECK(std::string(e.what()).find(path + ": ") == 0);  // names the file
    return e.what();
  }
  FAIL("no error for " << name);
  return {};
}

}  // namespace

TEST_CASE("a mesh written as glTF reads back the same, .gltf and .glb") {
  std::filesystem::create_directories(kDir);
  const Mesh m = make_irregular({.width = 0.3f, .height = 0.2f, .columns = 6, .rows = 5, .seed = 7});
  for (const char* name : {"round.gltf", "round.glb"}) {
    const std::string path = (kDir / name).string();
    save_gltf_mesh(m, path);
    const Mesh back = load_gltf_mesh(path);
    CHECK(back.positions == m.positions);
    CHECK(back.material == m.material);
    CHECK(back.triangles == m.triangles);
  }
  CHECK(is_gltf_path("a/B.GLTF"));
  CHECK(is_gltf_path("x.glb"));
  CHECK_FALSE(is_gltf_path("x.obj"));
}

TEST_CASE("the garment from glTF and the same garment from OBJ give the same model") {
  const std::string scenes = std::string(WEFT_SOURCE_DIR) + "/assets/scenes";
  std::string text = read_text(scenes + "/garment.json");
  const Scene obj = parse_scene(text, "garment.json", scenes);
  for (size_t at; (at = text.find("\"obj\"")) != std::string::npos;) text.replace(at, 5, "\"gltf\"");
  for (size_t at; (at = text.find(".obj\"")) != std::string::npos;) text.replace(at, 5, ".gltf\"");
  const Scene gltf = parse_scene(text, "garment.json", scenes);
  REQUIRE(gltf.panels.size() == 2);
  CHECK(gltf.panels[0].file.find(".gltf") != std::string::npos);
  const ClothModel a = build_cloth_model(obj.mesh, obj.material), b = build_cloth_model(gltf.mesh, gltf.material);
  REQUIRE(a.vertex_count() == b.vertex_count());
  CHECK(a.rest_position == b.rest_position);
  CHECK(a.material_coord == b.material_coord);
  CHECK(a.triangle == b.triangle);
  CHECK(a.mass == b.mass);
  CHECK(obj.seam_lines.a == gltf.seam_lines.a);
  CHECK(obj.seam_lines.w == gltf.seam_lines.w);
}

TEST_CASE("the garment's seams come from lines named in its mesh files: OBJ and glTF alike, as the border runs") {
  const std::string scenes = std::string(WEFT_SOURCE_DIR) + "/assets/scenes";
  const std::string text = read_text(scenes + "/garment.json");
  REQUIRE(text.find("\"line\": \"left_side\"") != std::string::npos);
  for (const char* ext : {"obj", "gltf"}) {
    std::string t = text;
    if (std::string(ext) == "gltf")
      for (size_t at; (at = t.find("\"obj\"")) != std::string::npos;) t.replace(at, 5, std::string("\"") + ext + "\"");
    if (std::string(ext) == "gltf")
      for (size_t at; (at = t.find(".obj\"")) != std::string::npos;) t.replace(at, 5, std::string(".") + ext + "\"");
    const Scene by_lines = parse_scene(t, "garment.json", scenes);
    // the same seams as border runs between the side seams' end points (waist to hem)
    const size_t from = t.find("\"seam_lines\""), to = t.find("\"interaction\"");
    t.replace(from, to - from, R"("seam_lines": [
      { "a": { "panel": "front", "from": [-0.14, 1.07, 0.02], "to": [-0.3, 0.67, 0.05] },
        "b": { "panel": "back", "from": [-0.14, 1.07, -0.02], "to": [-0.3, 0.67, -0.05] } },
      { "a": { "panel": "front", "from": [0.14, 1.07, 0.02], "to": [0.3, 0.67, 0.05] },
        "b": { "panel": "back", "from": [0.14, 1.07, -0.02], "to": [0.3, 0.67, -0.05] } } ],
      )");
    const Scene by_points = parse_scene(t, "garment.json", scenes);
    INFO(ext);
    CHECK(by_lines.mesh.vertex_count() == 750);  // the lines' own vertices are not cloth
    REQUIRE(by_lines.seam_lines.size() == 30);
    CHECK(by_lines.seam_lines.a == by_points.seam_lines.a);
    CHECK(by_lines.seam_lines.b == by_points.seam_lines.b);
    CHECK(by_lines.seam_lines.c == by_points.seam_lines.c);
    CHECK(by_lines.seam_lines.w == by_points.seam_lines.w);
  }
}

TEST_CASE("glTF LINES and LINE_STRIP primitives are named lines, by node or else mesh, transforms applied") {
  std::filesystem::create_directories(kDir);
  const std::string path = (kDir / "with_lines.gltf").string();
  save_gltf_mesh(make_grid({.width = 0.2f, .height = 0.2f, .columns = 2, .rows = 2}), path);
  nlohmann::json j = nlohmann::json::parse(read_text(path));
  // a second primitive in the cloth's mesh, LINES over the cloth's own POSITION and indices, and a node "seam" moved 1 m up with a LINE_STRIP primitive of the same points
  j["meshes"][0]["primitives"].push_back({{"attributes", {{"POSITION", 0}}}, {"indices", 2}, {"mode", 1}});
  j["meshes"].push_back({{"name", "seam_mesh"}, {"primitives", {{{"attributes", {{"POSITION", 0}}}, {"mode", 3}}}}});
  j["nodes"].push_back({{"name", "seam"}, {"mesh", 1}, {"translation", {0, 1, 0}}});
  j["scenes"][0]["nodes"].push_back(1);
  std::ofstream(path) << j.dump();
  std::vector<MeshLine> lines;
  const Mesh m = load_gltf_mesh(path, &lines);
  CHECK(m.vertex_count() == 9);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].name == "cloth");  // the node's name
  CHECK(lines[0].segments.size() == 12);  // the 24 triangle indices read as 12 segments
  CHECK(lines[0].segments[0][0] == m.positions[m.triangles[0][0]]);
  CHECK(lines[0].segments[0][1] == m.positions[m.triangles[0][1]]);
  CHECK(lines[1].name == "seam");
  CHECK(lines[1].segments.size() == 8);  // a strip of 9
  CHECK(lines[1].segments[0][1] == m.positions[1] + glm::vec3(0, 1, 0));
}

TEST_CASE("a malformed glTF is an error naming the file and what is wrong") {
  std::filesystem::create_directories(kDir);
  {  // truncated
    const std::string path = (kDir / "truncated.gltf").string();
    save_gltf_mesh(make_grid({.width = 0.2f, .height = 0.2f, .columns = 2, .rows = 2}), path);
    const std::string text = read_text(path);
    std::ofstream(path) << text.substr(0, text.size() / 2);
    try {
      load_gltf_mesh(path);
      FAIL("a truncated file loaded");
    } catch (const MeshFileError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(path + ": ") == 0);
      CHECK(std::string(e.what()).size() > path.size() + 4);
    }
  }
  CHECK(error_after("missing_buffer.gltf", [](nlohmann::json& j) { j["buffers"][0]["uri"] = "missing.bin"; })
            .find("missing.bin") != std::string::npos);
  CHECK(error_after("points.gltf", [](nlohmann::json& j) { j["meshes"][0]["primitives"][0]["mode"] = 0; })
            .find("neither triangles (4) nor lines") != std::string::npos);
  // its one primitive made lines: a seam line, and no cloth left
  CHECK(error_after("lines.gltf", [](nlohmann::json& j) { j["meshes"][0]["primitives"][0]["mode"] = 1; })
            .find("no triangles") != std::string::npos);
  // POSITION cut to 4 vertices: the indices reach past them
  CHECK(error_after("index.gltf", [](nlohmann::json& j) {
          j["accessors"][0]["count"] = 4;
          j["accessors"][1]["count"] = 4;
        }).find("out of range") !=
        std::string::npos);
  CHECK(error_after("past_end.gltf", [](nlohmann::json& j) { j["accessors"][2]["count"] = 3000; })
            .find("past the end") != std::string::npos);
  CHECK(error_after("no_position.gltf", [](nlohmann::json& j) { j["meshes"][0]["primitives"][0]["attributes"].erase("POSITION"); })
            .find("no POSITION") != std::string::npos);
  std::filesystem::remove_all(kDir);
}

TEST_CASE("a scene reads a glTF panel, and a bad one is an error at its path key") {
  std::filesystem::create_directories(kDir);
  save_gltf_mesh(make_grid({.width = 0.2f, .height = 0.2f, .columns = 2, .rows = 2}), (kDir / "panel.gltf").string());
  const Scene s = parse_scene(R"({"cloth": {"mesh": {"type": "gltf", "path": "panel.gltf"}}})", "s.json", kDir.string());
  CHECK(s.mesh.vertex_count() == 9);
  try {
    parse_scene(R"({"cloth": {"mesh": {"type": "gltf", "path": "none.gltf"}}})", "s.json", kDir.string());
    FAIL("a missing glTF loaded");
  } catch (const SceneError& e) {
    CHECK(e.place() == "/cloth/mesh/path");
    CHECK(e.problem().find("none.gltf") != std::string::npos);
  }
  std::filesystem::remove_all(kDir);
}
