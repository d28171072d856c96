#include <iostream>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "app/run_options.h"

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

TEST_CASE("weft run --mode headless --no-render --json prints the timing summary") {
  RunOptions o;
  o.mode = "headless";
  o.render = false;
  o.json = true;
  o.frames = 18;  // 0.2 s of 90 Hz consumer frames
  o.grid = 8;
  o.sim_priority = "normal";  // no real-time class in tests
  o.tick_hz = 240;
  const nlohmann::json j = run_json(o);
  for (const char* key : {"tick_hz", "ticks", "step_ms_p50", "step_ms_p99", "lateness_ms_p99", "skipped_ticks",
                          "snapshots_read"})
    CHECK_MESSAGE(j.contains(key), key);
  CHECK(j["tick_hz"].get<double>() == 240);
  CHECK(j["frames"].get<uint64_t>() == 18);
  CHECK(j["vertices"].get<uint64_t>() == 81);
  CHECK(j["ticks"].get<uint64_t>() > 0);
  CHECK(j["snapshots_read"].get<uint64_t>() > 0);
  CHECK(j["snapshots_read"].get<uint64_t>() <= 18);  // at most one new snapshot per consumer frame
  CHECK(j["step_ms_p99"].get<double>() >= j["step_ms_p50"].get<double>());
  // Every published snapshot is read, replaced unread, or still waiting: none appears from nowhere.
  CHECK(j["snapshots_read"].get<uint64_t>() + j["snapshots_overwritten"].get<uint64_t>() <=
        j["snapshots_published"].get<uint64_t>());
}

}  // namespace
}  // namespace weft::app
