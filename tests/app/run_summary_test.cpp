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

namespace weft::app {

// Issue 37: a scene with seams reports seam_gap_max_m (at the end, the worst tick, the worst once all are
// sewn) in every --json's `stream`, and a console line; a scene without seams reports neither.
TEST_CASE("stream summary: the garment scene's seams, sewn on the sim thread, and none for the table") {
  RuntimeOptions options;
  options.scene_file = std::string(WEFT_SOURCE_DIR) + "/assets/scenes/garment.json";
  ScriptedSession garment(options);
  CHECK_FALSE(garment.scene().scripted_demo);  // "demo": "none": the skirt sews itself
  garment.advance_to(1.0);
  garment.finish();
  const TickStats st = garment.runtime().stats();
  const nlohmann::json j = stream_summary(st);
  REQUIRE(j.contains("seam_gap_max_m"));
  CHECK(j["seam_pairs"].get<uint64_t>() == 30);
  CHECK(j["seams_sewn"].get<uint64_t>() == 30);
  CHECK(j["seams_sewn_tick"].get<uint64_t>() > 0);
  CHECK(j["seam_gap_max_m"]["worst"].get<double>() > 0.05);  // the panels start 4-9 cm apart
  CHECK(j["seam_gap_max_m"]["end"].get<double>() <= 0.002);
  CHECK(j["seam_gap_max_m"]["worst_sewn"].get<double>() <= 0.002);
  CHECK(j["grabs"].get<uint64_t>() == 0);
  CHECK(seam_notice(j).find("30 of 30 pairs sewn") != std::string::npos);

  ScriptedSession table;
  table.advance_to(0.1);
  table.finish();
  const nlohmann::json t = stream_summary(table.runtime().stats());
  CHECK_FALSE(t.contains("seam_gap_max_m"));
  CHECK(seam_notice(t).empty());
  CHECK(t.contains("body_penetration_max_m"));  // no body, but the hands' colliders (on by default)
}

// Issue 37: body_penetration_max_m has the shape of seam_gap_max_m: the end and the worst tick.
TEST_CASE("stream summary: body penetration at the end and at the worst tick where there is a body") {
  TickStats st;
  st.has_body = true;
  st.body_penetration_max_m = 0.003;
  st.body_penetration_end_m = 0.001;
  const nlohmann::json j = stream_summary(st);
  REQUIRE(j.contains("body_penetration_max_m"));
  CHECK(j["body_penetration_max_m"]["worst"].get<double>() == doctest::Approx(0.003));
  CHECK(j["body_penetration_max_m"]["end"].get<double>() == doctest::Approx(0.001));
}

// Issue 37: sews whose longer run World::sew clipped (sim/seam_line.h kMaxSeamGather) are counted in --json.
TEST_CASE("stream summary: the seam tool's clipped sews") {
  TickStats st;
  st.sews_applied = 3;
  st.sews_clipped = 2;
  const nlohmann::json j = stream_summary(st);
  CHECK(j["sews_applied"].get<uint64_t>() == 3);
  CHECK(j["sews_clipped"].get<uint64_t>() == 2);
}

}  // namespace weft::app
