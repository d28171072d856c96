#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "engine/material_loader.h"
#include "engine/scene_loader.h"
#include "sim/cloth_model.h"
#include "sim/mesh_generators.h"

using namespace weft;

namespace {
const std::string kDir = std::string(WEFT_SOURCE_DIR) + "/assets/materials";
}

TEST_CASE("material presets: every file loads and builds a model") {
  const auto names = list_material_presets(kDir);
  for (const char* expected : {"cotton", "denim", "isotropic", "silk", "wool_jersey"})
    CHECK(std::find(names.begin(), names.end(), std::string(expected)) != names.end());
  const Mesh mesh = make_grid({.width = 0.1f, .height = 0.1f, .columns = 4, .rows = 4});
  for (const auto& n : names) {
    INFO(n);
    const Material m = load_material_preset(n, kDir);
    CHECK(build_cloth_model(mesh, m).vertex_count() == 25);
  }
  const Material denim = load_material_preset("denim", kDir);
  CHECK(denim.stretch_model == StretchModel::WeftWarp);
  CHECK(denim.areal_density == doctest::Approx(0.324f));
  CHECK(denim.weave.warp(0.02f).stress > 4.f * denim.weave.weft(0.02f).stress);  // warp-faced twill
  CHECK(denim.weave.shear(0.02f).stress < denim.weave.weft(0.02f).stress);      // shears easily
  const Material iso = load_material_preset("isotropic", kDir);
  CHECK(iso.stretch_model == StretchModel::Springs);
  CHECK(iso.stretch_stiffness == doctest::Approx(Material{}.stretch_stiffness));
  const PlasticityParams cotton = load_material_preset("cotton", kDir).weave.plasticity;
  CHECK(cotton.enabled);
  CHECK(cotton.in_plane);
  CHECK(cotton.yield_strain == doctest::Approx(0.04f));
  CHECK(cotton.shear_yield_strain == doctest::Approx(0.2f));
  CHECK(cotton.strain_relaxation_time == doctest::Approx(60.f));
  CHECK_FALSE(load_material_preset("denim", kDir).weave.plasticity.in_plane);  // off unless the file says so
}

TEST_CASE("material presets: in-plane plasticity keys") {
  const std::string head = R"({"stretch_model": "weft_warp", "weave": {"weft": {"strain": [0, 1], "stress": [0, 100]},
    "warp": {"strain": [0, 1], "stress": [0, 100]}, "shear": {"strain": [0, 1], "stress": [0, 50]}, "plasticity": )";
  const Material m = parse_material(head + R"({"in_plane": true, "yield_strain": 0.03, "strain_relaxation_time": 5}}})", "x.json");
  CHECK(m.weave.plasticity.in_plane);
  CHECK_FALSE(m.weave.plasticity.enabled);
  CHECK(m.weave.plasticity.yield_strain == doctest::Approx(0.03f));
  CHECK(m.weave.plasticity.shear_yield_strain == doctest::Approx(0.03f));  // defaults to yield_strain
  CHECK(m.weave.plasticity.strain_relaxation_time == doctest::Approx(5.f));
  CHECK_THROWS_WITH_AS(parse_material(head + R"({"in_plane": true}}})", "x.json"),
                       doctest::Contains("x.json:2: /weave/plasticity: in_plane needs 'yield_strain'"), MaterialFileError);
  CHECK_THROWS_WITH_AS(parse_material(head + R"({"in_plane": 1, "yield_strain": 0.03}}})", "x.json"),
                       doctest::Contains("/weave/plasticity/in_plane: expected true or false"), MaterialFileError);
  CHECK_THROWS_WITH_AS(parse_material(head + R"({"in_plane": true, "yield_strain": -1}}})", "x.json"),
                       doctest::Contains("/weave/plasticity/yield_strain: value -1 out of range"), MaterialFileError);
}

TEST_CASE("material files: the isotropic membrane reads one curve") {
  const std::string weft = R"("weft": {"strain": [-0.5, 0, 0.5], "stress": [-50, 0, 200]})";
  const Material m = parse_material(R"({"stretch_model": "weft_warp", "weave": {"membrane": "isotropic", )" + weft + "}}", "x.json");
  CHECK(m.weave.membrane == Membrane::Isotropic);
  CHECK(m.weave.warp(0.5f).stress == doctest::Approx(200.f));  // the same curve in every direction
  CHECK(m.weave.shear(0.5f).stress == doctest::Approx(100.f));
  const Mesh mesh = make_grid({.width = 0.1f, .height = 0.1f, .columns = 3, .rows = 3});
  CHECK(build_cloth_model(mesh, m).weft_warp.active());
  CHECK(parse_material(R"({"stretch_model": "weft_warp", "weave": {"membrane": "weft_warp", )" + weft +
                           R"(, "warp": {"strain": [0, 1], "stress": [0, 1]}, "shear": {"strain": [0, 1], "stress": [0, 1]}}})",
                       "x.json").weave.membrane == Membrane::WeftWarp);
  CHECK_THROWS_WITH_AS(parse_material(R"({"stretch_model": "weft_warp", "weave": {"membrane": "isotropic", )" + weft +
                                          R"(, "warp": {"strain": [0, 1], "stress": [0, 1]}}})", "x.json"),
                       doctest::Contains("/weave/warp: the isotropic membrane reads one curve"), MaterialFileError);
  CHECK_THROWS_WITH_AS(parse_material(R"({"stretch_model": "weft_warp", "weave": {"membrane": "rubber", )" + weft + "}}", "x.json"),
                       doctest::Contains("/weave/membrane: 'rubber' is not one of weft_warp, isotropic"), MaterialFileError);
  CHECK_THROWS_WITH_AS(parse_material(R"({"stretch_model": "weft_warp", "weave": {"membrane": "isotropic", )" + weft +
                                          R"(, "plasticity": {"in_plane": true, "yield_strain": 0.03}}})", "x.json"),
                       doctest::Contains("in-plane plasticity needs the weft_warp membrane"), MaterialFileError);
}

TEST_CASE("material presets: errors name the file and the place") {
  CHECK_THROWS_WITH_AS(load_material_preset("no_such_fabric", kDir), doctest::Contains("unknown material 'no_such_fabric'"),
                       MaterialFileError);
  CHECK_THROWS_WITH_AS(parse_material(R"({"stretch_model": "weft_warp"})", "x.json"), doctest::Contains("weave"),
                       MaterialFileError);
  CHECK_THROWS_WITH_AS(parse_material(R"({"areal_density": -1})", "x.json"), doctest::Contains("/areal_density"),
                       MaterialFileError);
  CHECK_THROWS_WITH_AS(parse_material(R"({"bogus": 1})", "x.json"), doctest::Contains("unknown key 'bogus'"),
                       MaterialFileError);
  CHECK_THROWS_WITH_AS(
      parse_material(R"({"stretch_model": "weft_warp", "weave": {"weft": {"strain": [0, 0.1, 0.05], "stress": [0, 1, 2]},
                         "warp": {"strain": [0, 1], "stress": [0, 1]}, "shear": {"strain": [0, 1], "stress": [0, 1]}}})",
                     "x.json"),
      doctest::Contains("/weave/weft"), MaterialFileError);
  // a number with its source
  const Material m = parse_material(R"({"areal_density": {"value": 0.2, "source": "measured"}})", "x.json");
  CHECK(m.areal_density == doctest::Approx(0.2f));
}

TEST_CASE("material files: errors name the file and the line") {
  const auto dir = std::filesystem::temp_directory_path() / "weft_material_loader_line_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "felt.json").string();
  std::ofstream(path) << "{\n  \"name\": \"felt\",\n  \"areal_density\": {\"value\": 0.3, \"source\": \"guess\"},\n"
                         "  \"damping\": {\"value\": -1, \"source\": \"typo\"}\n}\n";
  CHECK_THROWS_WITH_AS(load_material_file(path), (path + ":4: /damping: value -1 out of range [0, 1e+06]").c_str(),
                       MaterialFileError);
  std::ofstream(path) << "{\n  \"areal_density\": 0.3,\n  \"damping\": 0.01,\n}\n";  // a trailing comma
  CHECK_THROWS_WITH_AS(load_material_file(path), doctest::Contains((path + ":4:1: /: invalid JSON: syntax error").c_str()),
                       MaterialFileError);
  // a scene naming the preset names both files
  const std::string scene = R"({"cloth": {"mesh": {"type": "grid"},
                                "material": ")" + path + R"("}})";
  CHECK_THROWS_WITH_AS(parse_scene(scene, "s.json"), doctest::Contains(("s.json:2: /cloth/material: " + path + ":4:1:").c_str()),
                       SceneError);
  std::filesystem::remove_all(dir);
}

TEST_CASE("scene files and presets share one material parser: the same keys, bounds and models") {
  // the wider areal density bound of the two that were, a weft_warp material inline, a preset's total_mass
  const std::string grid = R"({"cloth": {"mesh": {"type": "grid", "columns": 2, "rows": 2}, "material": )";
  CHECK(parse_scene(grid + R"({"areal_density": 5e-6}}})", "s.json").material.areal_density == doctest::Approx(5e-6f));
  CHECK(parse_material(R"({"areal_density": 500, "total_mass": 0.2, "gravity": [0, -1, 0]})", "m.json").total_mass ==
        doctest::Approx(0.2f));
  const Scene inline_weave = parse_scene(grid + R"({"stretch_model": "weft_warp", "areal_density": {"value": 0.2, "source": "test"},
    "weave": {"membrane": "isotropic", "weft": {"strain": [0, 1], "stress": [0, 100]}}}}})", "s.json");
  CHECK(inline_weave.material.stretch_model == StretchModel::WeftWarp);
  CHECK(inline_weave.material.areal_density == doctest::Approx(0.2f));
  // a preset read inline gives the same material as by name
  std::ifstream in(kDir + "/denim.json");
  const std::string denim((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Material by_name = load_material_preset("denim", kDir);
  const Material inline_denim = parse_scene(grid + denim + "}}", "s.json").material;
  CHECK(inline_denim.areal_density == by_name.areal_density);
  CHECK(inline_denim.weave.weft_bending == by_name.weave.weft_bending);
  CHECK(inline_denim.weave.warp(0.02f).stress == by_name.weave.warp(0.02f).stress);
  CHECK_THROWS_WITH_AS(parse_material(R"({"stretch_model": 1})", "m.json"), "m.json:1: /stretch_model: expected a string",
                       MaterialFileError);
}

TEST_CASE("scene files select a preset by name") {
  const std::string text = R"({"cloth": {"mesh": {"type": "grid", "columns": 2, "rows": 2}, "material": "denim"}})";
  const Scene s = parse_scene(text, "t.json", std::string(WEFT_SOURCE_DIR) + "/assets/scenes");
  CHECK(s.material.stretch_model == StretchModel::WeftWarp);
  CHECK(s.material.areal_density == doctest::Approx(0.324f));
  const Scene r = parse_scene(R"({"cloth": {"mesh": {"type": "grid", "columns": 2, "rows": 2}, "material": "denim",
                                            "weave_angle_deg": 30}})",
                              "t.json", std::string(WEFT_SOURCE_DIR) + "/assets/scenes");
  CHECK(r.material.weave.angle_deg == doctest::Approx(30.f));
  CHECK_THROWS_WITH_AS(parse_scene(R"({"cloth": {"mesh": {"type": "grid"}, "material": "tweed"}})", "t.json", "."),
                       doctest::Contains("/cloth/material"), SceneError);
}
