#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/scripted_session.h"
#include "sim/intersection_count.h"
#include "sim/strain_limit.h"

namespace weft {

TEST_CASE("scripted two-hand demo: grabs both corners, lifts, releases, and the cloth lands on the table") {
  ScriptedSession demo;
  const float top = demo.scene().props.floor_height + demo.scene().props.table->top_height;
  // The scripted hands move in the sheet's plane: their colliders come onto them only where they land clear of the
  // cloth (sim/driven_collider.h, lands_clear) and wait parked below the stage until then, not where the scene
  // starts the hands (made parked there, they stood there and pushed the sheet); while the hands hold they stand aside.
  for (double t : {0.1, 0.2, TwoHandScript::kGrabTime - 0.05}) {
    demo.advance_to(t);
    for (const Collider& c : demo.world().colliders())
      if (c.follows) CHECK(c.parked == (c.pose.position.y < -100.f));
  }
  demo.advance_to(TwoHandScript::kGrabTime + 0.05);
  for (const Collider& c : demo.world().colliders()) CHECK((c.parked || !c.follows));
  CHECK(!demo.held(Hand::Left).empty());
  CHECK(!demo.held(Hand::Right).empty());
  demo.advance_to(TwoHandScript::kLiftEnd);
  const uint32_t corner = demo.scene().near_corners[0];
  CHECK(demo.snapshot().position[corner].y > top + 0.45f);
  CHECK(std::string(TwoHandScript::phase(2.0)) == "shake");
  demo.advance_to(TwoHandScript::kShakeEnd + 0.1);  // past the patch's slide out of the grip (sim/grasp_release.h)
  CHECK(demo.held(Hand::Left).empty());
  demo.advance_to(TwoHandScript::kEnd + 1.5);
  demo.finish();
  // Fallen and settled: the highest vertex is back near the table top and most of the cloth rests on it.
  float max_y = -1e9f;
  int on_table = 0;
  glm::vec3 centre(0.f);
  for (const glm::vec3& p : demo.world().state().position) {
    max_y = std::max(max_y, p.y);
    on_table += std::abs(p.y - top) < 0.05f;
    centre += p;
  }
  centre /= float(demo.world().model().vertex_count());
  INFO("on table ", on_table, ", centre ", centre.x, " ", centre.y - top, " ", centre.z, " (table z within 0.3)");
  CHECK(max_y < top + 0.25f);
  CHECK(on_table > int(demo.world().model().vertex_count() / 2));
  CHECK(demo.world().invalid_pose_count() == 0);
}

// Issue 16, item 6: every shipped scene's scripted demo ends with no edge strained over the 10 % limit
// (and passes no edge over 15 % on the way)
// (the limiter's 1e-3 band allowed). table.json (self-collision, 20 s) is checked in the validation test
// below. cube_drop.json ended at 10.27 % when its rigid box acted after the last limiting pass.
TEST_CASE("every shipped scene's scripted demo ends with no edge over 10 %") {
  for (const char* name :
       {"", "hanging.json", "tracker_corner.json", "cube_drop.json", "creased_napkin.json", "ball_drape.json"}) {
    RuntimeOptions options;
    if (*name) options.scene_file = std::string(WEFT_SOURCE_DIR) + "/assets/scenes/" + name;
    ScriptedSession demo(options);
    demo.advance_to(TwoHandScript::kEnd + 1.5);
    demo.finish();
    const float strain = max_edge_strain(demo.world().model(), demo.world().state().position.data());
    const std::string scene = *name ? name : "built-in table";
    const double peak = demo.runtime().stats().stream.edge_strain_max;
    INFO(scene << ": max edge strain at the end " << strain << ", at any tick " << peak);
    CHECK(strain <= 0.101f);
    // On the way, no edge far past the limit: creased_napkin's pin and hands reached 36 % with tether
    // lengths taken from edge paths (sim/flat_pieces.h), the others 10-13 %.
    CHECK(peak < 0.15);
    MESSAGE(scene << ": max edge strain at the end " << strain << ", at any tick " << peak);
  }
}

// A user's scene: an irregular denim scarf, self-collision on, over a crate turned 20 degrees. Once the
// hands let go it drapes over the crate's edges, and the self-contacts' corrections end with a collider
// pass and a limiter pass (the limiter last): with the collider last, the peak was 0.23 and the end 0.108 here (176 %
// in a real-time run). 777 vertices, 5.7 s: about 2 s.
TEST_CASE("a scarf draped over a turned crate: no edge far past the limit at any tick") {
  const auto file = std::filesystem::temp_directory_path() / "weft_test_scarf_over_crate.json";
  std::ofstream(file) << R"({
    "name": "scarf_over_crate",
    "cloth": {
      "mesh": { "type": "irregular", "width": 0.9, "height": 0.5, "columns": 36, "rows": 20, "grading": 2.5,
                "jitter": 0.3, "seed": 7 },
      "position": [-0.45, 0.62, 0.25], "rotation_deg": [-90, 0, 0], "material": "denim"
    },
    "self_collision": { "enabled": true, "thickness": 0.004 },
    "colliders": [
      { "type": "plane", "position": [0, 0, 0] },
      { "type": "box", "position": [0, 0.3, 0], "half_extents": [0.3, 0.3, 0.2], "rotation_deg": [0, 20, 0] }
    ],
    "hands": { "left": { "position": [-0.35, 0.8, 0.3] }, "right": { "position": [0.35, 0.8, 0.3] } }
  })";
  RuntimeOptions options;
  options.scene_file = file.string();
  ScriptedSession demo(options);
  demo.advance_to(TwoHandScript::kEnd + 1.5);
  demo.finish();
  const double peak = demo.runtime().stats().stream.edge_strain_max;
  const float end = max_edge_strain(demo.world().model(), demo.world().state().position.data());
  MESSAGE("scarf over crate: peak edge strain " << peak << ", at the end " << end);
  CHECK(peak < 0.21);  // 0.186; 0.234 with the collider last
  CHECK(end <= 0.101f);
  std::filesystem::remove(file);
}

// Issue 37: hanging.json with hand colliders on. The scripted hands come down inside the sheet's plane onto its
// bottom corners. Chasing the corners until the grab, each palm pushed its corner on and followed it, and the
// two hands met mid-sheet at the 6 m/s speed cap: 1 210 % and 343 clamps (TwoHandScript::kTrackEnd).
// Both grabs catch: the catch radius is measured from the palm's surface (from the grip, the right palm pushed
// its corner beyond it first: 13 and 0 vertices held at 0.45 s).
TEST_CASE("hanging.json's scripted demo with hand colliders: the hands stay apart, both catch, nothing torn, no clamp") {
  const auto file = std::filesystem::temp_directory_path() / "weft_test_hanging_hand_colliders.json";
  std::ifstream in(std::string(WEFT_SOURCE_DIR) + "/assets/scenes/hanging.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string hands = "\"hands\": {";
  REQUIRE(text.find(hands) != std::string::npos);
  text.replace(text.find(hands), hands.size(), hands + " \"colliders\": {},");
  std::ofstream(file) << text;
  RuntimeOptions options;
  options.scene_file = file.string();
  ScriptedSession demo(options);
  REQUIRE(demo.world().colliders().size() == 5);  // the floor, each hand's palm and forearm
  demo.advance_to(TwoHandScript::kGrabTime);
  MESSAGE("at the grab: hands at x " << demo.hand_position(Hand::Left).x << ", " << demo.hand_position(Hand::Right).x);
  CHECK(demo.hand_position(Hand::Right).x - demo.hand_position(Hand::Left).x > 0.5f);  // at their corners, 0.6 apart
  // The scripted hands move in the sheet's plane: their colliders come onto them only where they land clear of the
  // cloth (sim/driven_collider.h, lands_clear) and wait parked below the stage until then, not where the scene
  // starts the hands (made parked there, they stood there and pushed the sheet); while the hands hold they stand aside.
  for (double t : {0.1, 0.2, TwoHandScript::kGrabTime - 0.05}) {
    demo.advance_to(t);
    for (const Collider& c : demo.world().colliders())
      if (c.follows) CHECK(c.parked == (c.pose.position.y < -100.f));
  }
  demo.advance_to(TwoHandScript::kGrabTime + 0.05);
  for (const Collider& c : demo.world().colliders()) CHECK((c.parked || !c.follows));
  MESSAGE("held after the grab: " << demo.world().held_vertices(Device::LeftHand).size() << " and "
                                  << demo.world().held_vertices(Device::RightHand).size());
  CHECK(demo.world().held_vertices(Device::LeftHand).size() > 0);
  CHECK(demo.world().held_vertices(Device::RightHand).size() > 0);
  demo.advance_to(TwoHandScript::kEnd + 1.5);
  demo.finish();
  const TickStats stats = demo.runtime().stats();
  MESSAGE("hanging.json with hand colliders: peak edge strain " << stats.stream.edge_strain_max << ", clamps "
                                                              << stats.speed_clamps << " + " << stats.energy_clamps);
  CHECK(stats.stream.edge_strain_max < 0.15);
  CHECK(max_edge_strain(demo.world().model(), demo.world().state().position.data()) <= 0.101f);
  CHECK(stats.speed_clamps + stats.energy_clamps == 0);
  std::filesystem::remove(file);
}

// The fold demo scene as shipped (assets/scenes/table.json: 48 x 48 cloth, self-collision on), with the
// runtime's solver (mg) and with CG at 1 %, under the
// same script: lifted, stretched, shaken at up to 6 m/s and dropped. It must stay bounded and fall. The
// edge-triangle crossings at the end are printed, not checked (docs/self_collision.md: 0 since the
// corrections are checked against crossing, 45 before, about 180 with self-collision off).
// About 20 s: validation suite (no comma in the name: doctest filters split on it).
TEST_SUITE("validation") {
TEST_CASE("scripted two-hand demo on table.json with self-collision on stays bounded and falls") {
  for (const char* solver : {"mg", "cg"}) {
  INFO(solver);
  RuntimeOptions options;
  options.solver = solver;
  options.scene_file = std::string(WEFT_SOURCE_DIR) + "/assets/scenes/table.json";
  ScriptedSession demo(options);
  demo.advance_to(TwoHandScript::kEnd + 1.5);  // 1.5 s after the script: settled
  demo.finish();
  REQUIRE(demo.world().self_collision() != nullptr);
  const TickStats stats = demo.runtime().stats();
  const double max_speed = stats.stream.vertex_speed_peak;
  const uint64_t max_contacts = stats.self_contacts_max;
  const float top = demo.scene().props.floor_height + demo.scene().props.table->top_height;
  float max_y = -1e9f, min_y = 1e9f;
  for (const glm::vec3& p : demo.world().state().position) {
    max_y = std::max(max_y, p.y);
    min_y = std::min(min_y, p.y);
  }
  const uint64_t crossings = count_self_intersections(demo.world().model(), demo.world().state().position).edge_triangle;
  MESSAGE("max speed " << max_speed << " m/s, max self-contacts " << max_contacts << ", final edge-triangle crossings "
                       << crossings);
  CHECK(max_speed < 10.f);  // bounded: the hands move at most 6 m/s (interaction max_speed)
  // The layers did touch with CG stopped at 1 %; the runtime's converged multigrid solver keeps the stiff
  // cotton from collapsing onto itself in this script's lay-down (it ends unfolded: no two vertices 5 cm
  // apart at rest come within 3.7 cm), so only CG exercises self-collision here.
  if (std::string(solver) == "cg") CHECK(max_contacts > 0);
  // Fell (the hands let go in front of the table's edge: the heap ends on the table or slides off it).
  CHECK(max_y < top + 0.25f);
  CHECK(min_y >= demo.scene().props.floor_height);  // finite, nothing below the floor
  // Issue 16, item 6: the demo ends with no edge over the 10 % limit (and its 1e-3 band).
  CHECK(max_edge_strain(demo.world().model(), demo.world().state().position.data()) <= 0.101f);
  // And no edge tears on the way: the left hand drags its held patch up over the table's front edge
  // (sim/held_clearance.h); pushed out vertex by vertex, the edge between two held vertices reached 72 %.
  MESSAGE("peak edge strain " << stats.stream.edge_strain_max);
  CHECK(stats.stream.edge_strain_max < 0.2);
  }
}
}

}  // namespace weft
