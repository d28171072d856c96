// XR input into the runtime (lockstep, so the sim applies exactly what was fed): grabs, tracker clips and
// the replay-to-live handoff all reach the sim thread and are counted there.
#include <doctest/doctest.h>

#include "engine/snapshot_interpolation.h"
#include "sim/mesh_generators.h"
#include "xr/engine_input_sink.h"

using namespace weft;
using namespace weft::xr;

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
}  // namespace

TEST_CASE("hand input through the engine sink: a grab that catches cloth and one that catches nothing are told apart") {
  Runtime rt(lockstep(), small_scene(), "test:small");
  EngineInputSink sink(rt);
  const double hz = rt.scene().tick_hz;
  const glm::vec3 corner = rt.world().model().rest_position[0];
  rt.start();
  rt.begin_tick(0);
  CHECK(sink.submit_pose(sample(Device::LeftHand, corner, 0.0)));
  CHECK(sink.grab(Hand::Left, Pose{corner, {1, 0, 0, 0}}, 0.02f) == 0);  // known on the sim thread only
  CHECK(sink.grab(Hand::Right, Pose{corner + glm::vec3(0.f, 0.f, 1.f), {1, 0, 0, 0}}, 0.02f) == 0);
  rt.end_tick(0);
  rt.run_to(2);
  ClothSnapshot snap;
  snap.resize(rt.scene().vertices);
  REQUIRE(interpolate_snapshot(rt.snapshots(), 2.0 / hz, snap) >= 0);
  CHECK(snap.hands[0].grabbing);
  CHECK_FALSE(snap.hands[1].grabbing);
  CHECK((snap.grasped[0] & 1) != 0);
  uint64_t held = 0;  // the held patch the run summary reports is the one the snapshot shows
  for (const auto g : snap.grasped) held += (g & 1) != 0;
  rt.begin_tick(2);
  sink.release(Hand::Left);
  rt.end_tick(2);
  rt.run_to(4);
  rt.stop();
  const TickStats st = rt.stats();
  CHECK(st.grabs == 1);
  CHECK(st.grab_misses == 1);
  CHECK(st.releases == 1);
  CHECK(held >= 1);
  CHECK(st.held_vertices_min == held);
  CHECK(st.held_vertices_max == held);
}

TEST_CASE("tracker clips go to the sim as attach/detach and show on the tracker gizmos") {
  Runtime rt(lockstep(), small_scene(), "test:small");
  EngineInputSink sink(rt);
  const glm::vec3 corner = rt.world().model().rest_position[4];
  rt.start();
  rt.begin_tick(0);
  CHECK(sink.submit_pose(sample(Device::Tracker2, corner, 0.0)));
  CHECK(sink.attach_tracker(Device::Tracker2, Pose{corner, {1, 0, 0, 0}}, 0.03f) == 0);
  rt.end_tick(0);
  rt.run_to(2);
  ClothSnapshot snap;
  snap.resize(rt.scene().vertices);
  REQUIRE(interpolate_snapshot(rt.snapshots(), 1e9, snap) >= 0);
  sink.mark_clipped(snap);
  CHECK(snap.trackers[2].active);
  CHECK(snap.trackers[2].grabbing);
  CHECK_FALSE(snap.trackers[0].grabbing);
  CHECK(sink.attach_requests() == 1);
  rt.begin_tick(2);
  sink.detach_tracker(Device::Tracker2);
  rt.end_tick(2);
  rt.run_to(3);
  rt.stop();
  sink.mark_clipped(snap);
  CHECK_FALSE(snap.trackers[2].grabbing);
  CHECK(rt.stats().attaches == 1);
}

namespace {
// A hand driven near the cloth (the built-in replay) for 0.5 s, then live poses from a controller 1.5 m
// away (30 m/s if taken as motion), handed over as the XR session does; returns the samples rejected.
uint64_t handoff_rejections(bool reset_on_handoff) {
  Runtime rt(lockstep(), small_scene(), "test:small");
  EngineInputSink sink(rt);
  const double hz = rt.scene().tick_hz;
  const glm::vec3 replayed(0.f, 0.2f, 0.1f), live(1.5f, 1.2f, 0.5f);
  rt.start();
  for (uint64_t k = 0; k < 240; ++k) {
    rt.begin_tick(k);
    const bool is_live = k >= 120;
    if (k == 120 && reset_on_handoff) sink.reset_device(Device::RightHand);
    const glm::vec3 p = (is_live ? live : replayed) + glm::vec3(0.f, 0.001f * float(k % 10), 0.f);
    sink.submit_pose(sample(Device::RightHand, p, double(k) / hz));
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
