#include <string>

#include <doctest/doctest.h>

#include "app/run_summary.h"
#include "engine/scripted_session.h"

namespace weft::app {

// Issue 34: the grasps' yields (sim/grasp_saturation.h) and release slides (sim/grasp_release.h) are counted
// over the run and reported in every --json's `stream` (stream_summary) and in one console line.
TEST_CASE("stream summary: the grasp counters of the built-in table demo (pulled wider than the cloth, released)") {
  ScriptedSession demo;
  demo.advance_to(TwoHandScript::kEnd + 0.2);
  demo.finish();
  const TickStats st = demo.runtime().stats();
  MESSAGE("saturated patch-ticks " << st.grasp_saturated << ", sliding patch-ticks " << st.grasp_sliding);
  // The script pulls the corners 0.2 m past the cloth's width: the grasps yield; the release slides.
  CHECK(st.grasp_saturated > 0);
  CHECK(st.grasp_sliding > 0);
  const nlohmann::json j = stream_summary(st);
  CHECK(j["grasp_saturated_ticks"].get<uint64_t>() == st.grasp_saturated);
  CHECK(j["grasp_sliding_ticks"].get<uint64_t>() == st.grasp_sliding);
  const std::string line = grasp_notice(st.grasp_saturated, st.grasp_sliding);
  CHECK(line.find(std::to_string(st.grasp_saturated)) != std::string::npos);
  CHECK(line.find(std::to_string(st.grasp_sliding)) != std::string::npos);
}

TEST_CASE("grasp notice: silent when no grasp yielded") { CHECK(grasp_notice(0, 0).empty()); }

}  // namespace weft::app
