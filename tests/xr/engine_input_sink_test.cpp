#include <doctest/doctest.h>

#include "engine/direct_world_input.h"
#include "sim/mesh_generators.h"
#include "xr/engine_input_sink.h"

using namespace weft;
using namespace weft::xr;

namespace {
World small_cloth() {
  GridSpec g;
  g.width = g.height = 0.4f;
  g.columns = g.rows = 4;
  Mesh mesh = make_grid(g);
  return World(build_cloth_model(mesh, Material{}, {}), WorldConfig{});
}
PoseSample sample(Device d, glm::vec3 p, double t) {
  PoseSample s;
  s.device = d;
  s.time = t;
  s.pose.position = p;
  return s;
}
}  // namespace

TEST_CASE("hand input goes through the engine sink: grabs hold vertices and show as grasp highlights") {
  World world = small_cloth();
  DirectWorldInput input(world);
  EngineInputSink sink(input);
  const glm::vec3 corner = world.model().rest_position[0];
  CHECK(sink.submit_pose(sample(Device::LeftHand, corner, 0.0)));
  CHECK(sink.grab(Hand::Left, Pose{corner, {1, 0, 0, 0}}, 0.02f) >= 1);
  ClothSnapshot snap;
  snap.resize(world.model().vertex_count());
  input.fill_devices(snap);
  CHECK(snap.hands[0].active);
  CHECK(snap.hands[0].grabbing);
  CHECK((snap.grasped[0] & 1) != 0);
  sink.release(Hand::Left);
  input.fill_devices(snap);
  CHECK_FALSE(snap.hands[0].grabbing);
}

TEST_CASE("tracker poses and clips become tracker gizmos but rejected poses do not") {
  World world = small_cloth();
  DirectWorldInput input(world);
  EngineInputSink sink(input);
  ClothSnapshot snap;
  sink.fill_trackers(snap);
  for (const auto& g : snap.trackers) CHECK_FALSE(g.active);

  CHECK(sink.submit_pose(sample(Device::Tracker2, {0.1f, 1.f, -0.5f}, 0.0)));
  PoseSample bad = sample(Device::Tracker0, {NAN, 0.f, 0.f}, 0.0);
  CHECK_FALSE(sink.submit_pose(bad));
  sink.fill_trackers(snap);
  CHECK_FALSE(snap.trackers[0].active);
  CHECK(snap.trackers[2].active);
  CHECK_FALSE(snap.trackers[2].grabbing);
  CHECK(snap.trackers[2].position == glm::vec3(0.1f, 1.f, -0.5f));

  CHECK(sink.attach_tracker(Device::Tracker2, Pose{{0.1f, 1.f, -0.5f}, {1, 0, 0, 0}}, 0.03f) == 0);
  CHECK(sink.attach_requests() == 1);
  sink.fill_trackers(snap);
  CHECK(snap.trackers[2].grabbing);
  sink.detach_tracker(Device::Tracker2);
  sink.fill_trackers(snap);
  CHECK_FALSE(snap.trackers[2].grabbing);
  CHECK(snap.trackers[2].active);
  // Hands never land in tracker slots.
  CHECK(sink.submit_pose(sample(Device::RightHand, {0, 1, 0}, 0.1)));
  sink.fill_trackers(snap);
  CHECK_FALSE(snap.trackers[1].active);
}
