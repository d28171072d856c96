// The one input seam (Runtime::input) in lockstep, so the sim applies exactly what was fed: grabs, tracker
// clips, resets and the replay-to-live handoff all reach the sim thread and are counted there, and the
// snapshot says what the sim did with them (which hands hold cloth, which trackers are clipped on).
#include <doctest/doctest.h>

#include <cmath>

#include "engine/runtime.h"
#include "engine/snapshot_interpolation.h"
#include "sim/mesh_generators.h"

using namespace weft;

namespace {
Scene small_scene() {
  Scene s;
  s.name = "small";
  GridSpec g;
  g.width = g.height = 0.4f;
  g.columns = g.rows = 4;
  s.mesh = make_grid(g);
  s.pins = {20, 24};  // top row: the cloth hangs still enough for the test
  return s;
}
RuntimeOptions lockstep() {
  RuntimeOptions ro;
  ro.lockstep = true;
  return ro;
}
PoseSample sample(Device d, glm::vec3 p, double t) {
  PoseSample s;
  s.device = d;
  s.time = t;
  s.pose.position = p;
  return s;
}
// The snapshot of the newest tick published.
ClothSnapshot newest(Runtime& rt) {
  ClothSnapshot snap;
  snap.resize(rt.scene().vertices);
  REQUIRE(interpolate_snapshot(rt.snapshots(), 1e300, snap) >= 0);
  return snap;
}
}  // namespace

TEST_CASE("hand input through the runtime: a grab that catches cloth and one that catches nothing are told apart") {
  Runtime rt(lockstep(), small_scene(), "test:small");
  InputSink& in = rt.input();
  const double hz = rt.scene().tick_hz;
  const glm::vec3 corner = rt.world().model().rest_position[0];
  rt.start();
  rt.begin_tick(0);
  in.submit_pose(sample(Device::LeftHand, corner, 0.0));
  in.grab(Hand::Left, Pose{corner, {1, 0, 0, 0}}, 0.02f);
  in.grab(Hand::Right, Pose{corner + glm::vec3(0.f, 0.f, 1.f), {1, 0, 0, 0}}, 0.02f);  // 1 m off the cloth
  rt.end_tick(0);
  rt.run_to(2);
  ClothSnapshot snap;
  snap.resize(rt.scene().vertices);
  REQUIRE(interpolate_snapshot(rt.snapshots(), 2.0 / hz, snap) >= 0);
  CHECK(snap.hands[0].grabbing);
  CHECK_FALSE(snap.hands[1].grabbing);  // asked to grab, holds nothing: the snapshot shows the sim's truth
  CHECK(snap.hands[1].held_vertices == 0);
  CHECK((snap.grasped[0] & 1) != 0);
  uint64_t held = 0;  // the held patch the run summary reports is the one the snapshot shows
  for (const auto g : snap.grasped) held += (g & 1) != 0;
  CHECK(snap.hands[0].held_vertices == held);
  rt.begin_tick(2);
  in.release(Hand::Left);
  rt.end_tick(2);
  rt.run_to(4);
  CHECK_FALSE(newest(rt).hands[0].grabbing);
  rt.stop();
  const TickStats st = rt.stats();
  CHECK(st.grabs == 1);
  CHECK(st.grab_misses == 1);
  CHECK(st.releases == 1);
  CHECK(held >= 1);
  CHECK(st.held_vertices_min == held);
  CHECK(st.held_vertices_max == held);
}

TEST_CASE("a tracker clipped on through the runtime shows on its gizmo from the next snapshot, until it lets go") {
  Runtime rt(lockstep(), small_scene(), "test:small");
  InputSink& in = rt.input();
  const glm::vec3 corner = rt.world().model().rest_position[4];
  rt.start();
  rt.run_to(1);
  CHECK_FALSE(newest(rt).trackers[2].grabbing);
  rt.begin_tick(1);
  in.submit_pose(sample(Device::Tracker2, corner, 1.0 / rt.scene().tick_hz));
  in.attach(Device::Tracker2, Pose{corner, {1, 0, 0, 0}}, 0.03f);
  rt.end_tick(1);
  rt.run_to(2);  // the attach applied at boundary 1: the snapshot of tick 2 shows it
  ClothSnapshot snap = newest(rt);
  CHECK(snap.tick == 2);
  CHECK(snap.trackers[2].active);
  CHECK(snap.trackers[2].grabbing);
  CHECK(snap.trackers[2].held_vertices >= 1);
  CHECK_FALSE(snap.trackers[0].grabbing);
  CHECK_FALSE(snap.hands[0].grabbing);
  CHECK((snap.grasped[4] & 4) != 0);
  // A reset releases the hands but leaves the tracker clipped on (it belongs to the scene's setup).
  rt.begin_tick(2);
  in.reset();
  rt.end_tick(2);
  rt.run_to(3);
  CHECK(newest(rt).trackers[2].grabbing);
  rt.begin_tick(3);
  in.detach(Device::Tracker2);
  rt.end_tick(3);
  rt.run_to(4);
  snap = newest(rt);
  CHECK_FALSE(snap.trackers[2].grabbing);
  CHECK(snap.trackers[2].held_vertices == 0);
  rt.stop();
  CHECK(rt.stats().attaches == 1);
}

TEST_CASE("a tracker clip that catches nothing leaves the tracker's gizmo empty") {
  Runtime rt(lockstep(), small_scene(), "test:small");
  rt.start();
  rt.begin_tick(0);
  rt.input().attach(Device::Tracker0, Pose{glm::vec3(5.f, 5.f, 5.f), {1, 0, 0, 0}}, 0.03f);
  rt.end_tick(0);
  rt.run_to(1);
  CHECK_FALSE(newest(rt).trackers[0].grabbing);
  rt.stop();
  CHECK(rt.stats().attaches == 0);
  CHECK(rt.stats().grab_misses == 1);
}

TEST_CASE("a scene's own trackers show as clipped on from the first snapshot") {
  Scene s = small_scene();
  s.trackers.push_back({});
  s.trackers.back().device = Device::Tracker1;
  s.trackers.back().vertices = {0, 1};
  Runtime rt(lockstep(), s, "test:small-tracker");
  rt.start();
  rt.run_to(1);
  const ClothSnapshot snap = newest(rt);
  CHECK(snap.trackers[1].grabbing);
  CHECK(snap.trackers[1].held_vertices == 2);
  CHECK_FALSE(snap.trackers[1].active);  // attached, but no pose seen yet
  rt.stop();
}

namespace {
// A hand driven near the cloth (the built-in replay) for 0.5 s, then live poses from a controller 1.5 m
// away (30 m/s if taken as motion), handed over as the XR session does; returns the samples rejected.
uint64_t handoff_rejections(bool reset_on_handoff) {
  Runtime rt(lockstep(), small_scene(), "test:small");
  InputSink& in = rt.input();
  const double hz = rt.scene().tick_hz;
  const glm::vec3 replayed(0.f, 0.2f, 0.1f), live(1.5f, 1.2f, 0.5f);
  rt.start();
  for (uint64_t k = 0; k < 240; ++k) {
    rt.begin_tick(k);
    const bool is_live = k >= 120;
    if (k == 120 && reset_on_handoff) in.reset_device(Device::RightHand);
    const glm::vec3 p = (is_live ? live : replayed) + glm::vec3(0.f, 0.001f * float(k % 10), 0.f);
    in.submit_pose(sample(Device::RightHand, p, double(k) / hz));
    rt.end_tick(k);
  }
  rt.run_to(240);
  rt.stop();
  const TickStats st = rt.stats();
  CHECK(st.poses_applied == 240);
  return st.poses_conditioned_out;
}
}  // namespace

TEST_CASE("live controllers taking over from the replay: no sample is rejected because of the switch") {
  CHECK(handoff_rejections(true) == 0);
  // Without the device reset the conditioner takes the jump for an outlier and rejects until it re-acquires.
  CHECK(handoff_rejections(false) > 10);
}

TEST_CASE("a flagged or broken pose is rejected and counted once, on the sim thread") {
  Runtime rt(lockstep(), small_scene(), "test:small");
  InputSink& in = rt.input();
  const double hz = rt.scene().tick_hz;
  rt.start();
  for (uint64_t k = 0; k < 6; ++k) {
    rt.begin_tick(k);
    PoseSample s = sample(Device::LeftHand, {0.f, 0.2f, 0.1f}, double(k) / hz);
    if (k == 2) s.valid = false;                    // the tracking system says it does not know
    if (k == 4) s.pose.position.x = std::nanf("");  // a runtime's broken numbers
    in.submit_pose(s);
    rt.end_tick(k);
  }
  rt.run_to(6);
  rt.stop();
  const TickStats st = rt.stats();
  CHECK(st.poses_applied == 6);
  CHECK(st.poses_conditioned_out + st.poses_invalid == 2);
}
