#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/mesh_io.h"
#include "engine/runtime.h"
#include "engine/scene_loader.h"
#include "sim/topology.h"
#include "sim/vertex_colouring.h"
#include "sim/weft_warp_kernels.h"

using namespace weft;

namespace {
const std::string kScenes = std::string(WEFT_SOURCE_DIR) + "/assets/scenes/";

// A minimal valid scene with `extra` spliced in as more top-level keys.
std::string scene_text(const std::string& extra = "") {
  std::string s = R"({"cloth": {"mesh": {"type": "grid", "width": 0.4, "height": 0.4, "columns": 4, "rows": 4}})";
  if (!extra.empty()) s += ", " + extra;
  return s + "}";
}

// Parses `text`, expects a SceneError `test.json:line: place: problem`, and checks the line, the place
// and part of the problem.
void expect_error(const std::string& text, const std::string& place, const std::string& problem_part, size_t line = 1) {
  try {
    parse_scene(text, "test.json");
    FAIL("no error for: " << text);
  } catch (const SceneError& e) {
    INFO(e.what());
    CHECK(e.file() == "test.json");
    CHECK(e.line() == line);
    CHECK(e.place() == place);
    CHECK(e.problem().find(problem_part) != std::string::npos);
    if (e.column() == 0) CHECK(std::string(e.what()).find("test.json:" + std::to_string(line) + ": " + place + ": ") == 0);
  }
}
}  // namespace

TEST_CASE("the shipped scenes load, build and step") {
  for (const char* name :
       {"table.json", "hanging.json", "tracker_corner.json", "cube_drop.json", "creased_napkin.json", "ball_drape.json"}) {
    INFO(name);
    const Scene scene = load_scene(kScenes + name);
    World world = build_world(scene);
    for (int k = 0; k < 5; ++k) world.step();
    for (const glm::vec3& x : world.state().position) REQUIRE(std::isfinite(x.x + x.y + x.z));
  }
  const Scene table = load_scene(kScenes + "table.json");
  CHECK(table.mesh.vertex_count() == 49 * 49);
  CHECK(table.colliders.size() == 2);
  CHECK(table.colliders[1].shape == ColliderShape::Box);
  CHECK(table.world.integrator == IntegratorKind::Multigrid);  // the runtime default, named in the file
  CHECK(table.world.solver.mg_tolerance == doctest::Approx(1e-3f));
  CHECK(table.world.solver.translation_correction);  // the runtime default survives loading
  CHECK(table.hand_start[1].position.x == doctest::Approx(0.3f));
  const Scene hanging = load_scene(kScenes + "hanging.json");
  CHECK(hanging.pins.size() == 2);
  const Scene tracker = load_scene(kScenes + "tracker_corner.json");
  REQUIRE(tracker.trackers.size() == 1);
  CHECK(tracker.trackers[0].device == Device::Tracker0);
  CHECK(tracker.trackers[0].vertices.size() >= 1);
  CHECK(tracker.world.interaction.elastic.tau == doctest::Approx(0.03f));
  const Scene ball = load_scene(kScenes + "ball_drape.json");  // the shipped OBJ mesh, scaled, over round colliders
  CHECK(ball.mesh.vertex_count() == 625);
  REQUIRE(ball.colliders.size() == 3);
  CHECK(ball.colliders[1].shape == ColliderShape::Sphere);
  CHECK(ball.colliders[2].shape == ColliderShape::Capsule);
  const Scene napkin = load_scene(kScenes + "creased_napkin.json");
  REQUIRE(napkin.creases.size() == 1);
  CHECK(napkin.creases[0].rest_angle_deg == doctest::Approx(90.f));
  CHECK(napkin.material.stretch_model == StretchModel::WeftWarp);
  // hung from the top of its crease, the napkin folds there: the crease's hinges near 90 degrees after 1 s
  World folded = build_world(napkin);
  for (int k = 0; k < 240; ++k) folded.step();
  const WeftWarpModel& w = folded.model().weft_warp;
  const auto& x = folded.state().position;
  double sum = 0, n = 0;
  for (size_t e = 0; e < w.hinge_count(); ++e)
    if (w.hinge_rest_angle[e] > 1.f) {
      const auto& h = w.hinge[e];
      sum += hinge_angle({x[h[0]], x[h[1]], x[h[2]], x[h[3]]}).theta;
      n += 1;
    }
  CHECK(n == 24);
  CHECK(glm::degrees(sum / n) == doctest::Approx(90.0).epsilon(0.1));
}

TEST_CASE("every shipped scene's cloth and every shipped mesh colours validly for the Gauss-Seidel solver") {
  std::vector<Mesh> meshes;
  for (const char* name : {"table.json", "hanging.json", "tracker_corner.json", "cube_drop.json", "ball_drape.json"})
    meshes.push_back(load_scene(kScenes + name).mesh);
  for (const auto& entry : std::filesystem::directory_iterator(std::string(WEFT_SOURCE_DIR) + "/assets/meshes"))
    if (entry.path().extension() == ".obj") meshes.push_back(load_obj_mesh(entry.path().string()));
  REQUIRE(meshes.size() >= 5);
  for (const Mesh& mesh : meshes) {
    const ClothModel model = build_cloth_model(mesh, {});
    const VertexColouring c = colour_vertices(model.vertex_count(), model.link);
    CHECK(colouring_conflicts(c, model.link) == 0);
    CHECK(c.order.size() == model.vertex_count());
  }
  // sim.sweeps reaches the solver options; "gs" is accepted
  const Scene gs = parse_scene(scene_text(R"("sim": {"solver": "gs", "sweeps": 6})"), "gs.json");
  CHECK(gs.world.integrator == IntegratorKind::GaussSeidel);
  CHECK(gs.world.solver.gs_sweeps == 6);
  // sim.threads: the multigrid's helper thread, on or off
  CHECK(parse_scene(scene_text(R"("sim": {"threads": 1})"), "t.json").world.solver.mg_threads == 1);
  CHECK(parse_scene(scene_text(R"("sim": {"threads": 2})"), "t.json").world.solver.mg_threads == 2);
}

TEST_CASE("scene errors name the file, the place and the problem") {
  expect_error("{\"cloth\": {\n  \"mesh\": [1, 2,]\n}}", "/cloth/mesh", "invalid JSON: syntax error", 2);
  CHECK_THROWS_WITH_AS(parse_scene("{\"cloth\": {\n  \"mesh\": [1, 2,]\n}}", "test.json"),
                       doctest::Contains("test.json:2:17: /cloth/mesh: invalid JSON: syntax error"), SceneError);
  expect_error("{}", "/", "missing key 'cloth'");
  expect_error(scene_text(R"("colour": 3)"), "/colour", "unknown key 'colour'");
  expect_error(R"({"cloth": {"mesh": {"type": "grid", "columns": "ten"}}})", "/cloth/mesh/columns", "expected an integer");
  expect_error(R"({"cloth": {"mesh": {"type": "grid", "columns": 0}}})", "/cloth/mesh/columns", "out of range");
  expect_error(R"({"cloth": {"mesh": {"type": "torus"}}})", "/cloth/mesh/type", "'torus' is not one of grid, irregular, obj");
  expect_error(R"({"cloth": {"mesh": {"type": "obj", "path": "no/such.obj"}}})", "/cloth/mesh/path", "cannot open the file");
  expect_error(R"({"cloth": {"mesh": {"type": "grid"}, "material": {"alpha": 2}}})", "/cloth/material/alpha", "out of range");
  expect_error(R"({"cloth": {"mesh": {"type": "grid"}, "position": [0, 1]}})", "/cloth/position", "3 numbers");
  expect_error(scene_text(R"("colliders": [{"type": "plane"}, {"type": "sphere", "radius": -1}])"), "/colliders/1/radius", "out of range");
  expect_error(scene_text(R"("colliders": [{"type": "box", "mu_static": 0.1, "mu_kinetic": 0.5}])"), "/colliders/0/mu_kinetic", "exceeds");
  expect_error(scene_text(R"("colliders": [{"radius": 1}])"), "/colliders/0", "missing key 'type'");
  expect_error(scene_text(R"("pins": [{"vertex": 25}])"), "/pins/0/vertex", "out of range [0, 24]");
  expect_error(scene_text(R"("pins": [{"radius": 0.1}])"), "/pins/0", "needs 'vertex'");
  expect_error(scene_text(R"("seams": [[1, 2, 3]])"), "/seams/0", "pair");
  expect_error(scene_text(R"("seams": [[4, 4]])"), "/seams/0", "two different vertices");
  expect_error(scene_text(R"("trackers": [{"device": "tracker9", "vertex": 0}])"), "/trackers/0/device", "not one of");
  expect_error(scene_text(R"("sim": {"iterations": 2})"), "/sim/iterations", "odd");
  expect_error(scene_text(R"("sim": {"threads": 3})"), "/sim/threads", "out of range");
  expect_error(scene_text(R"("interaction": {"tau": 0})"), "/interaction/tau", "out of range");
  expect_error(scene_text(R"("interaction": {"strain_limit": true})"), "/interaction/strain_limit", "number, or false");
  expect_error(scene_text(R"("self_collision": {"thickness": 0})"), "/self_collision/thickness", "out of range");
  expect_error(scene_text(R"("self_collision": {"enabled": 1})"), "/self_collision/enabled", "true or false");
  expect_error(scene_text(R"("self_collision": {"radius": 1})"), "/self_collision/radius", "unknown key");
  expect_error(scene_text(R"("rigid_boxes": [{"half_extents": [0.1, 0, 0.1]}])"), "/rigid_boxes/0/half_extents", "positive");
  expect_error(scene_text(R"("hands": {"left": {"position": [0, "a", 0]}})"), "/hands/left/position/1", "expected a number");
}

TEST_CASE("scene errors name the line of the key, in the file and in its material") {
  // a value out of range on line 5, an unknown key on line 3, a number beyond a double on line 4
  const std::string head = "{\"cloth\": {\"mesh\": {\"type\": \"grid\", \"columns\": 4, \"rows\": 4}},\n"
                           "  \"colliders\": [\n";
  expect_error(head + "    {\"type\": \"plane\"},\n    {\"type\": \"sphere\",\n     \"radius\": -1}]}", "/colliders/1/radius",
               "value -1 out of range [0.0001, 100]", 5);
  expect_error(head + "    {\"type\": \"plane\", \"colour\": 1}]}", "/colliders/0/colour", "unknown key 'colour'", 3);
  expect_error(head + "    {\"type\": \"plane\"},\n    {\"type\": \"sphere\", \"radius\": 1e999}]}", "/colliders/1",
               "number overflow parsing '1e999'", 4);
  // an inline material is read by the presets' parser, at the scene's lines
  expect_error("{\"cloth\": {\"mesh\": {\"type\": \"grid\"},\n  \"material\": {\"stretch_model\": \"weft_warp\",\n"
               "    \"weave\": {\"weft\": {\"strain\": [0, 1], \"stress\": [0, 1]}, \"warp\": {\"strain\": [0, 1], \"stress\": [0, 1]},\n"
               "              \"shear\": {\"strain\": [0, 1], \"stress\": [0, 1]}, \"weft_bending\": 11}}}}",
               "/cloth/material/weave/weft_bending", "value 11 out of range [0, 10]", 4);
  // a load names the path it was given
  const auto dir = std::filesystem::temp_directory_path() / "weft_scene_loader_line_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "bad.json").string();
  std::ofstream(path) << "{\n  \"name\": \"bad\",\n  \"cloth\": {\"mesh\": {\"type\": \"grid\", \"rows\": 0}}\n}\n";
  CHECK_THROWS_WITH_AS(load_scene(path), (path + ":3: /cloth/mesh/rows: value 0 out of range [1, 1024]").c_str(), SceneError);
  std::filesystem::remove_all(dir);
}

TEST_CASE("self-collision is off unless the scene turns it on") {
  CHECK_FALSE(parse_scene(scene_text(), "test.json").world.self_collision.enabled);
  const Scene on = parse_scene(scene_text(R"("self_collision": {"thickness": 0.006, "friction": 0.2})"), "test.json");
  CHECK(on.world.self_collision.enabled);
  CHECK(on.world.self_collision.thickness == doctest::Approx(0.006f));
  CHECK(on.world.self_collision.friction == doctest::Approx(0.2f));
  CHECK(build_world(on).self_collision() != nullptr);
  CHECK_FALSE(on.world.self_collision.consistent_orientation);  // off unless the scene asks
  CHECK(parse_scene(scene_text(R"("self_collision": {"consistent_orientation": true})"), "test.json")
            .world.self_collision.consistent_orientation);
  expect_error(scene_text(R"("self_collision": {"consistent_orientation": 1})"), "/self_collision/consistent_orientation",
               "true or false");
  CHECK_FALSE(parse_scene(scene_text(R"("self_collision": {"enabled": false})"), "test.json").world.self_collision.enabled);
  // Tangles are drawn apart by 0.25 thickness a tick unless the scene sets another step (0: left out only).
  CHECK(on.world.self_collision.untangle_step == doctest::Approx(0.25f));
  CHECK(parse_scene(scene_text(R"("self_collision": {"untangle_step": 0})"), "test.json").world.self_collision.untangle_step ==
        0.f);
  expect_error(scene_text(R"("self_collision": {"untangle_step": 3})"), "/self_collision/untangle_step", "out of range");
  CHECK(on.world.self_collision.rescan_ticks == 240);
  CHECK(parse_scene(scene_text(R"("self_collision": {"rescan_ticks": 0})"), "test.json").world.self_collision.rescan_ticks == 0);
  expect_error(scene_text(R"("self_collision": {"rescan_ticks": -1})"), "/self_collision/rescan_ticks", "out of range");
}

// Issue 34: the release slide's time (sim/grasp_release.h) is a scene key, 0 to 1 s.
TEST_CASE("interaction.release_time sets the release slide, 0 to 1 s") {
  CHECK(parse_scene(scene_text(), "test.json").world.interaction.release_time == doctest::Approx(0.075f));
  const Scene slow = parse_scene(scene_text(R"("interaction": {"release_time": 0.2})"), "test.json");
  CHECK(slow.world.interaction.release_time == doctest::Approx(0.2f));
  CHECK(build_world(slow).config().interaction.release_time == doctest::Approx(0.2f));
  CHECK(parse_scene(scene_text(R"("interaction": {"release_time": 0})"), "test.json").world.interaction.release_time == 0.f);
  expect_error(scene_text(R"("interaction": {"release_time": -0.01})"), "/interaction/release_time", "out of range [0, 1]");
  expect_error(scene_text(R"("interaction": {"release_time": 1.5})"), "/interaction/release_time", "out of range [0, 1]");
  expect_error(scene_text(R"("interaction": {"release_time": "slow"})"), "/interaction/release_time", "number");
}

TEST_CASE("a missing scene file is an error naming it") {
  try {
    load_scene("/nonexistent/scene.json");
    FAIL("no error");
  } catch (const SceneError& e) {
    CHECK(e.file() == "/nonexistent/scene.json");
    CHECK(e.problem() == "cannot open the file");
  }
}

TEST_CASE("an OBJ cloth loads relative to the scene file, with pins near a point and seams") {
  const auto dir = std::filesystem::temp_directory_path() / "weft_scene_loader_test";
  std::filesystem::create_directories(dir);
  {
    std::ofstream obj(dir / "panel.obj");
    obj << "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3\nf 1 3 4\n";
    std::ofstream scene(dir / "scene.json");
    scene << R"({"name": "obj", "cloth": {"mesh": {"type": "obj", "path": "panel.obj"}, "position": [0, 1, 0]},
               "pins": [{"near": [0, 1, 0], "radius": 0.01}], "seams": [[1, 3]],
               "interaction": {"strain_limit": false, "falloff": "uniform"}})";
  }
  const Scene s = load_scene((dir / "scene.json").string());
  CHECK(s.name == "obj");
  REQUIRE(s.mesh.vertex_count() == 4);
  CHECK(s.mesh.triangle_count() == 2);
  CHECK(s.mesh.positions[2].y == doctest::Approx(1.f));
  CHECK(s.mesh.material[2] == glm::vec2(1.f, 1.f));  // the panel's two wide axes (x, z)
  CHECK(s.pins == std::vector<uint32_t>{0});
  CHECK(s.seams.size() == 1);
  CHECK_FALSE(s.world.interaction.strain.enabled);
  CHECK(s.world.interaction.grasp.falloff == Falloff::Uniform);
  std::filesystem::remove_all(dir);
}

TEST_CASE("an OBJ modelled in centimetres loads at its size in metres with the mesh scale") {
  const auto dir = std::filesystem::temp_directory_path() / "weft_scene_loader_scale_test";
  std::filesystem::create_directories(dir);
  {
    std::ofstream obj(dir / "panel_cm.obj");
    obj << "v 0 0 0\nv 50 0 0\nv 50 0 50\nv 0 0 50\nf 1 2 3\nf 1 3 4\n";  // a 50 cm square
    std::ofstream scene(dir / "scene.json");
    scene << R"({"name": "cm", "cloth": {"mesh": {"type": "obj", "path": "panel_cm.obj", "scale": 0.01},
               "position": [0, 1, 0]}, "pins": [{"near": [0.5, 1, 0.5], "radius": 0.01}]})";
    std::ofstream bad(dir / "bad.json");
    bad << R"({"name": "bad", "cloth": {"mesh": {"type": "obj", "path": "panel_cm.obj", "scale": 0}}})";
  }
  const Scene s = load_scene((dir / "scene.json").string());
  REQUIRE(s.mesh.vertex_count() == 4);
  CHECK(s.mesh.positions[2].x == doctest::Approx(0.5f));
  CHECK(s.mesh.positions[2].y == doctest::Approx(1.f));
  CHECK(s.mesh.material[2].x == doctest::Approx(0.5f));  // rest lengths in metres too
  CHECK(s.pins == std::vector<uint32_t>{2});
  try {
    load_scene((dir / "bad.json").string());
    FAIL("a zero scale must be refused");
  } catch (const std::exception& e) {
    CHECK(std::string(e.what()).find("scale") != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("crease lines load from the scene's cloth, checked against the mesh and material") {
  const std::string cloth = R"({"cloth": {"mesh": {"type": "grid", "width": 0.4, "height": 0.4, "columns": 4, "rows": 4},
                                "material": "cotton", )";
  const Scene s = parse_scene(cloth + R"("creases": [{"from": [0.2, 0], "to": [0.2, 0.4], "angle_deg": 60,
                                                        "stiffness_scale": 2}]}})",
                              "test.json", kScenes);
  REQUIRE(s.creases.size() == 1);
  CHECK(s.creases[0].to == glm::vec2(0.2f, 0.4f));
  CHECK(s.creases[0].rest_angle_deg == doctest::Approx(60.f));
  CHECK(s.creases[0].stiffness_scale == doctest::Approx(2.f));
  const World world = build_world(s);
  size_t creased = 0;
  for (float a : world.model().weft_warp.hinge_rest_angle) creased += std::fabs(a - glm::radians(60.f)) < 1e-5f;
  CHECK(creased == 4);

  const auto error_of = [&](const std::string& creases, const std::string& material = "\"cotton\"") {
    try {
      parse_scene(R"({"cloth": {"mesh": {"type": "grid", "width": 0.4, "height": 0.4, "columns": 4, "rows": 4},
                      "material": )" + material + R"(, "creases": )" + creases + "}}",
                  "test.json", kScenes);
    } catch (const SceneError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of(R"([{"from": [0.2, 0], "to": [0.2, 0.4]}])").find("test.json:2: /cloth/creases/0: missing key 'angle_deg'") == 0);
  CHECK(error_of(R"([{"from": [0.2, 0], "to": [0.2, 0.4], "angle_deg": 200}])").find("/cloth/creases/0/angle_deg: value 200 out of range") != std::string::npos);
  CHECK(error_of(R"([{"from": [0.2], "to": [0.2, 0.4], "angle_deg": 20}])").find("/cloth/creases/0/from: expected an array of 2") != std::string::npos);
  CHECK(error_of(R"([{"from": [0.25, 0], "to": [0.25, 0.4], "angle_deg": 20}])").find("/cloth/creases/0: the segment lies on no interior edge") != std::string::npos);
  CHECK(error_of(R"([{"from": [0, 0], "to": [0.4, 0], "angle_deg": 20}])").find("lies on no interior edge") != std::string::npos);  // boundary
  CHECK(error_of(R"([{"from": [0.2, 0], "to": [0.2, 0.4], "angle_deg": 20, "fold": 1}])").find("unknown key 'fold'") != std::string::npos);
  CHECK(error_of(R"([{"from": [0.2, 0], "to": [0.2, 0.4], "angle_deg": 20}])", R"({"stretch_model": "springs"})")
            .find("/cloth/creases: crease lines need a weft_warp material") != std::string::npos);
}

TEST_CASE("a creased scene run with a springs material is refused naming the scene, the key and the flag") {
  const std::string file = kScenes + "creased_napkin.json";
  const std::string expected = file + ": /cloth/creases: crease lines need a weft_warp material; --material isotropic";
  CHECK_THROWS_WITH_AS(load_runtime_scene(file, "", 0, "isotropic"), doctest::Contains(expected.c_str()), std::invalid_argument);
  CHECK(load_runtime_scene(file, "", 0, "silk").creases.size() == 1);  // another weave keeps the creases
}

TEST_CASE("a scene made in code takes --material, --solver and --tick-hz as a scene file does") {
  // The stress and --grid paths build their scenes in code: the same rules as a loaded file apply.
  Scene creased = load_scene(kScenes + "creased_napkin.json");
  creased.material.weave.angle_deg = 30.f;
  RuntimeOptions options;
  options.material = "isotropic";
  CHECK_THROWS_WITH_AS(Runtime(options, creased, "generated napkin"),
                       doctest::Contains("generated napkin: /cloth/creases: crease lines need a weft_warp material; --material isotropic"),
                       std::invalid_argument);

  Scene silk = creased;
  apply_runtime_overrides(silk, "generated napkin", "cg", 480, "silk", 2);
  CHECK(silk.material.weave.angle_deg == 30.f);  // the scene's weave orientation stays
  CHECK(silk.material.stretch_model == StretchModel::WeftWarp);
  CHECK(silk.creases.size() == 1);
  CHECK(silk.world.integrator == IntegratorKind::ConjugateGradient);
  CHECK(silk.world.tick_hz == 480);
  CHECK(silk.world.solver.mg_threads == 2);

  Scene grid = hanging_grid_scene(8);
  CHECK_THROWS_WITH_AS(apply_runtime_overrides(grid, "hanging grid 8", "", 5000, "", 0),
                       doctest::Contains("outside 60 to 2000 Hz"), std::invalid_argument);
}

TEST_CASE("hands.colliders gives each hand a palm and a forearm that follow it, on unless \"enabled\": false") {
  // On by default (issue 37): a scene without the key has both hands' palms and forearms.
  const Scene plain = parse_scene(scene_text(), "test.json");
  CHECK(plain.hand_colliders.enabled);
  const World by_default = build_world(plain);
  REQUIRE(by_default.colliders().size() == 4);
  CHECK(by_default.colliders()[1].follows == Device::LeftHand);
  CHECK(by_default.colliders()[3].follows == Device::RightHand);
  const Scene on = parse_scene(
      scene_text(R"("hands": {"right": {"position": [0.3, 1, 0.4]}, "colliders": {"palm_radius": 0.05, "forearm_length": 0.3}})"),
      "test.json");
  CHECK(on.hand_colliders.enabled);
  CHECK(on.hand_colliders.palm_radius == doctest::Approx(0.05f));
  const World w = build_world(on);
  REQUIRE(w.colliders().size() == 4);  // left palm, left forearm, right palm, right forearm
  CHECK(w.colliders()[0].follows == Device::LeftHand);
  CHECK(w.colliders()[2].follows == Device::RightHand);
  CHECK(w.colliders()[2].radius == doctest::Approx(0.05f));
  CHECK(w.colliders()[3].half_length == doctest::Approx(0.15f));
  CHECK(glm::distance(w.colliders()[2].pose.position, glm::vec3(0.3f, 1.f, 0.4f)) < 1e-6f);  // at the hand's start
  for (const Collider& c : w.colliders()) CHECK(c.body);
  const Scene off = parse_scene(scene_text(R"("hands": {"colliders": {"enabled": false}})"), "test.json");
  CHECK_FALSE(off.hand_colliders.enabled);
  CHECK(build_world(off).colliders().empty());
  expect_error(scene_text(R"("hands": {"colliders": {"palm_radius": 0}})"), "/hands/colliders/palm_radius", "out of range");
  expect_error(scene_text(R"("hands": {"colliders": {"mu_static": 0.1, "mu_kinetic": 0.3}})"), "/hands/colliders/mu_kinetic",
               "exceeds");
}

TEST_CASE("body: the mannequin preset, parts changed, added and driven by devices or Vive tracker roles") {
  const Scene m = parse_scene(scene_text(R"("body": {"preset": "mannequin", "position": [1, 0, 0], "height": 1.6})"), "test.json");
  CHECK(m.body.parts.size() == 16);
  const World w = build_world(m);
  REQUIRE(w.colliders().size() == 16 + 4);  // and each hand's palm and forearm (on by default)
  for (size_t k = 0; k < w.colliders().size(); ++k) {
    CHECK(w.colliders()[k].body);
    CHECK(w.colliders()[k].follows.has_value() == (k >= 16));
  }
  // the hips follow the waist tracker (the first free slot after the scene's tracker0), a new part the left hand
  const Scene driven = parse_scene(scene_text(R"("trackers": [{"device": "tracker0", "vertex": 0}],
      "body": {"preset": "mannequin", "parts": [{"name": "hips", "follows": "waist"},
                                                {"name": "left_foot", "follows": "left_foot", "radius": 0.05},
                                                {"name": "bracelet", "type": "sphere", "radius": 0.03, "follows": "left_hand",
                                                 "offset": [0, 0, 0.1]}]})"),
                                   "test.json");
  Scene copy = driven;
  CHECK(copy.body.find("hips")->collider.follows == Device::Tracker1);
  CHECK(copy.body.find("left_foot")->collider.follows == Device::Tracker2);
  CHECK(copy.body.find("left_foot")->collider.radius == doctest::Approx(0.05f));
  CHECK(copy.tracker_roles[1] == "waist");
  CHECK(copy.tracker_roles[2] == "left_foot");
  CHECK(copy.tracker_roles[0].empty());
  REQUIRE(copy.body.find("bracelet") != nullptr);
  CHECK(copy.body.find("bracelet")->collider.follows == Device::LeftHand);
  CHECK(copy.body.find("bracelet")->collider.grip->position.z == doctest::Approx(0.1f));
  // the head follows the headset (XR submits its pose as Device::Head)
  Scene headed = parse_scene(scene_text(R"("body": {"preset": "mannequin", "parts": [{"name": "head", "follows": "head"}]})"),
                             "test.json");
  CHECK(headed.body.find("head")->collider.follows == Device::Head);
  CHECK(headed.tracker_roles[0].empty());
  // the part-by-part form alone
  const Scene parts = parse_scene(scene_text(R"("body": {"parts": [{"name": "torso", "type": "capsule", "radius": 0.15}]})"),
                                  "test.json");
  CHECK(parts.body.parts.size() == 1);
  expect_error(scene_text(R"("body": {})"), "/body", "needs a 'preset' or 'parts'");
  expect_error(scene_text(R"("body": {"preset": "robot"})"), "/body/preset", "not one of");
  expect_error(scene_text(R"("body": {"height": 1.7})"), "/body", "need a 'preset'");
  expect_error(scene_text(R"("body": {"parts": [{"name": "tail"}]})"), "/body/parts/0", "missing key 'type'");
  expect_error(scene_text(R"("body": {"parts": [{"name": "tail", "type": "capsule", "offset": [0, 0, 1]}]})"),
               "/body/parts/0/offset", "needs 'follows'");
  expect_error(scene_text(R"("body": {"parts": [{"name": "a", "type": "sphere", "follows": "waist"},
      {"name": "b", "type": "sphere", "follows": "chest"}, {"name": "c", "type": "sphere", "follows": "left_knee"},
      {"name": "d", "type": "sphere", "follows": "right_knee"}, {"name": "e", "type": "sphere", "follows": "camera"}]})"),
               "/body/parts/4/follows", "no tracker slot left", 3);
}

namespace {
// Two 0.4 m grid panels side by side (5 x 5 vertices each), the second 0.5 m to the right.
std::string panels_text(const std::string& seam_lines) {
  return R"({"cloth": {"panels": [
      {"name": "left", "mesh": {"type": "grid", "width": 0.4, "height": 0.4, "columns": 4, "rows": 4}},
      {"name": "right", "mesh": {"type": "grid", "width": 0.4, "height": 0.4, "columns": 4, "rows": 4},
       "position": [0.5, 0, 0]}], "position": [0, 1, 0]}, "seam_lines": [)" + seam_lines + "]}";
}
}  // namespace

TEST_CASE("panels merge into one cloth of disjoint pieces, each placed, with their vertex ranges kept") {
  const Scene s = parse_scene(panels_text(""), "test.json");
  REQUIRE(s.panels.size() == 2);
  CHECK(s.panels[0].name == "left");
  CHECK(s.panels[1].first_vertex == 25);
  CHECK(s.panels[1].vertex_count == 25);
  CHECK(s.panels[1].first_triangle == 32);
  CHECK(s.mesh.vertex_count() == 50);
  CHECK(s.mesh.triangles.back()[0] >= 25);
  CHECK(s.mesh.positions[25] == glm::vec3(0.5f, 1.f, 0.f));  // the panel's, then the cloth's placement
  CHECK(build_topology(s.mesh).boundary_vertex[24] == 1);
  // a single mesh is one panel: the whole cloth
  const Scene one = parse_scene(scene_text(), "test.json");
  REQUIRE(one.panels.size() == 1);
  CHECK(one.panels[0].vertex_count == one.mesh.vertex_count());
}

TEST_CASE("seam lines pair two border runs, given as points or as panel vertex lists") {
  // the left panel's right edge (x = 0.4) to the right panel's left edge (x = 0.5), bottom to top
  const Scene by_points = parse_scene(panels_text(R"({"a": {"panel": "left", "from": [0.4, 1, 0], "to": [0.4, 1.4, 0]},
                                                     "b": {"panel": "right", "from": [0.5, 1, 0], "to": [0.5, 1.4, 0]}})"),
                                      "test.json");
  REQUIRE(by_points.seam_lines.size() == 5);
  for (size_t k = 0; k < 5; ++k) {
    CHECK(by_points.seam_lines.a[k] == 4 + 5 * k);
    CHECK(by_points.seam_lines.b[k] == 25 + 5 * k);
  }
  const Scene by_vertices = parse_scene(panels_text(R"({"a": {"panel": "left", "vertices": [4, 9, 14, 19, 24]},
                                                       "b": {"panel": "right", "vertices": [0, 5, 10, 15, 20]}})"),
                                        "test.json");
  CHECK(by_vertices.seam_lines.a == by_points.seam_lines.a);
  CHECK(by_vertices.seam_lines.b == by_points.seam_lines.b);
  World w = build_world(by_points);
  CHECK(w.seams().size() == 5);
  // as edge lists, in any order and direction (chained from the end met first), and reversed
  const Scene by_edges = parse_scene(panels_text(R"({"a": {"panel": "left", "edges": [[9, 4], [9, 14], [19, 24], [14, 19]]},
                                                    "b": {"panel": "right", "edges": [[20, 15], [15, 10], [10, 5], [5, 0]], "reverse": true}})"),
                                     "test.json");
  CHECK(by_edges.seam_lines.a == by_points.seam_lines.a);
  CHECK(by_edges.seam_lines.b == by_points.seam_lines.b);
}

TEST_CASE("a seam run named in the panel's mesh file: its points matched to the panel's vertices") {
  const std::string dir = std::string(WEFT_BINARY_DIR) + "/scene_loader_lines";
  std::filesystem::create_directories(dir);
  // a 0.4 m square of two triangles with its right border drawn as its own object (Blender's loose edges)
  std::ofstream(dir + "/square.obj") << "v 0 0 0\nv 0.4 0 0\nv 0.4 0.4 0\nv 0 0.4 0\nf 1 2 3\nf 1 3 4\n"
                                        "o right\nv 0.4 0 0\nv 0.4 0.4 0\nl 5 6\no off\nv 0.4 0 0\nv 0.5 0.4 0\nl 7 8\n";
  auto text = [](const std::string& line_a) {
    return R"({"cloth": {"panels": [{"name": "p", "mesh": {"type": "obj", "path": "square.obj"}},
        {"name": "q", "mesh": {"type": "obj", "path": "square.obj"}, "position": [0.4, 0, 0], "rotation_deg": [0, 180, 0]}]},
        "seam_lines": [{"a": {"panel": "p", "line": ")" + line_a + R"("}, "b": {"panel": "q", "line": "right"}}]})";
  };
  const Scene s = parse_scene(text("right"), "test.json", dir);
  CHECK(s.mesh.vertex_count() == 8);
  REQUIRE(s.seam_lines.size() == 2);
  CHECK(s.seam_lines.a == std::vector<uint32_t>{1, 2});
  CHECK(s.seam_lines.b == std::vector<uint32_t>{5, 6});  // q turned about y onto p's right border
  auto error_of = [&](const std::string& t) -> std::string {
    try {
      parse_scene(t, "test.json", dir);
    } catch (const SceneError& e) {
      CHECK(e.place() == "/seam_lines/0/a/line");
      return e.problem();
    }
    return "no error";
  };
  CHECK(error_of(text("left")).find("no line named 'left' (its lines: 'right', 'off')") != std::string::npos);
  CHECK(error_of(text("off")).find("100.00 mm from the panel's nearest vertex") != std::string::npos);
  expect_error(panels_text(R"({"a": {"panel": "left", "edges": [[0, 1], [2, 3]]}, "b": {"panel": "right", "vertices": [0, 1]}})"),
               "/seam_lines/0/a/edges", "fall in pieces", 4);
  expect_error(panels_text(R"({"a": {"panel": "left", "edges": [[0, 1, 2]]}, "b": {"panel": "right", "vertices": [0, 1]}})"),
               "/seam_lines/0/a/edges/0", "expected an edge", 4);
  expect_error(panels_text(R"({"a": {"panel": "left", "line": "x"}, "b": {"panel": "right", "vertices": [0, 1]}})"),
               "/seam_lines/0/a/line", "has no lines", 4);
  expect_error(panels_text(R"({"a": {"panel": "left", "vertices": [0, 1], "edges": [[0, 1]]}, "b": {"panel": "right", "vertices": [0, 1]}})"),
               "/seam_lines/0/a", "needs one of", 4);
}

TEST_CASE("panels and seam lines that cannot be used are errors naming their place") {
  expect_error(R"({"cloth": {"mesh": {"type": "grid"}, "panels": []}})", "/cloth", "either 'mesh' or 'panels'");
  expect_error(R"({"cloth": {"panels": []}})", "/cloth/panels", "at least one panel");
  expect_error(R"({"cloth": {"panels": [{"name": "a", "mesh": {"type": "grid"}}, {"name": "a", "mesh": {"type": "grid"}}]}})",
               "/cloth/panels/1/name", "second panel named 'a'");
  expect_error(panels_text(R"({"a": {"panel": "middle", "vertices": [0, 1]}, "b": {"panel": "right", "vertices": [0, 1]}})"),
               "/seam_lines/0/a/panel", "no panel named 'middle'", 4);
  expect_error(panels_text(R"({"a": {"panel": "left", "vertices": [0, 25]}, "b": {"panel": "right", "vertices": [0, 1]}})"),
               "/seam_lines/0/a/vertices/1", "out of range", 4);
  expect_error(panels_text(R"({"a": {"from": [0.4, 1, 0], "to": [0.5, 1.4, 0]}, "b": {"panel": "right", "vertices": [0, 1]}})"),
               "/seam_lines/0/a", "different borders", 4);
  expect_error(panels_text(R"({"a": {"panel": "left", "vertices": [0, 1]}, "b": {"panel": "left", "vertices": [0, 1]}})"),
               "/seam_lines/0", "no seam pair", 4);
  expect_error(panels_text(R"({"a": {"panel": "left", "vertices": [0]}, "b": {"panel": "right", "vertices": [0, 1]}})"),
               "/seam_lines/0/a/vertices", "at least two", 4);
}

TEST_CASE("the demo key: the scripted two-hand demo by default, none leaves the cloth alone") {
  CHECK(parse_scene(scene_text(), "test.json").scripted_demo);
  CHECK_FALSE(parse_scene(scene_text(R"("demo": "none")"), "test.json").scripted_demo);
  expect_error(scene_text(R"("demo": "one_hand")"), "/demo", "one_hand");
}
