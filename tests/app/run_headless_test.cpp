#include <iostream>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "app/run_options.h"
#include "engine/scene_loader.h"

namespace weft::app {
namespace {

// Runs the headless sim mode for a few consumer frames and reads its JSON summary from stdout.
nlohmann::json run_json(RunOptions o) {
  std::ostringstream captured;
  std::streambuf* old = std::cout.rdbuf(captured.rdbuf());
  const int rc = run_headless_sim(o);
  std::cout.rdbuf(old);
  REQUIRE(rc == 0);
  return nlohmann::json::parse(captured.str());
}

RunOptions quick_sim() {
  RunOptions o;
  o.mode = "headless";
  o.render = false;
  o.json = true;
  o.frames = 18;  // 0.2 s of 90 Hz consumer frames
  o.sim_priority = "normal";  // no real-time class in tests
  return o;
}

}  // namespace

// The keys every mode's --json summary shares (app/run_summary.cpp; docs/runtime.md "Run statistics").
const char* const kSharedKeys[] = {"mode", "scene", "scene_file", "solver", "tick_hz", "vertices", "ticks",
                                   "sim_time_s", "skipped_ticks", "step_ms", "lateness_ms", "frames", "fps",
                                   "frame_ms", "lag_ms", "stream", "state_hash", "sim_priority"};

TEST_CASE("weft run --mode headless --no-render --json: the sim thread on the generated grid, shared summary keys") {
  RunOptions o = quick_sim();
  o.grid = 8;
  o.tick_hz = 240;
  const nlohmann::json j = run_json(o);
  for (const char* key : kSharedKeys) CHECK_MESSAGE(j.contains(key), key);
  CHECK(j["tick_hz"].get<double>() == 240);
  CHECK(j["frames"].get<uint64_t>() == 18);
  CHECK(j["vertices"].get<uint64_t>() == 81);
  CHECK(j["ticks"].get<uint64_t>() > 0);
  CHECK(j["step_ms"]["p99"].get<double>() >= j["step_ms"]["p50"].get<double>());
  // Drawn 1 tick behind the runtime clock: at least that much lag, and well under a frame.
  CHECK(j["lag_ms"]["p50"].get<double>() >= 0.9 * 1000.0 / 240);
  CHECK(j["lag_ms"]["p50"].get<double>() < 50);
}

TEST_CASE("weft run --no-render honours --scene and --solver: the scripted demo on tracker_corner.json") {
  RunOptions o = quick_sim();
  o.frames = 60;  // 0.67 s: past the scripted grab at 0.4 s
  o.scene = std::string(WEFT_SOURCE_DIR) + "/assets/scenes/tracker_corner.json";
  o.solver = "approx";
  const nlohmann::json j = run_json(o);
  CHECK(j["scene"] == "tracker_corner");
  CHECK(j["solver"] == "approx");
  CHECK(j["vertices"].get<uint64_t>() > 500);
  CHECK(j["stream"]["grabs"].get<uint64_t>() == 2);  // both scripted hands caught the cloth
  CHECK(j["stream"]["edge_strain_max"].get<double>() > 0);
}

TEST_CASE("weft run: a scene file that does not exist is an error naming the file") {
  RunOptions o = quick_sim();
  o.scene = "no/such/scene.json";
  try {
    run_headless_sim(o);
    FAIL("no error for a missing scene file");
  } catch (const SceneError& e) {
    CHECK(std::string(e.what()).find("no/such/scene.json") != std::string::npos);
  }
}

}  // namespace weft::app
