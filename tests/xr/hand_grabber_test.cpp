#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "xr/hand_grabber.h"
#include "xr/pose_replay.h"
#include "xr/tracker_attacher.h"

using namespace weft;
using namespace weft::xr;

namespace {
// A recording fake of the one input seam: what the XR side sends, in order.
struct RecordingSink final : InputSink {
  std::vector<PoseSample> poses;
  std::vector<std::pair<Hand, Pose>> grabs;
  std::vector<Hand> releases;
  std::vector<Device> attaches, detaches, device_resets;
  int resets = 0;
  void submit_pose(const PoseSample& s) override { poses.push_back(s); }
  void grab(Hand h, const Pose& p, float) override { grabs.emplace_back(h, p); }
  void release(Hand h) override { releases.push_back(h); }
  void attach(Device d, const Pose&, float) override { attaches.push_back(d); }
  void detach(Device d) override { detaches.push_back(d); }
  void reset() override { ++resets; }
  void reset_device(Device d) override { device_resets.push_back(d); }
  void tool(const ToolAction&) override {}
};

constexpr XrSpaceLocationFlags kValid = XR_SPACE_LOCATION_POSITION_VALID_BIT | XR_SPACE_LOCATION_ORIENTATION_VALID_BIT;

HandSample sample(double t, float squeeze, XrSpaceLocationFlags flags = kValid) {
  HandSample s;
  s.time = t;
  s.flags = flags;
  s.grip.position = {0.1f, 1.f, -0.2f};
  s.squeeze = squeeze;
  s.squeeze_active = true;
  return s;
}
}  // namespace

TEST_CASE("squeeze grabs once with a haptic request - letting go releases") {
  RecordingSink sink;
  HandGrabber hg;
  CHECK_FALSE(hg.update(Hand::Right, sample(0.00, 0.2f), sink));
  CHECK(hg.update(Hand::Right, sample(0.01, 0.9f), sink));   // grab: haptic
  CHECK_FALSE(hg.update(Hand::Right, sample(0.02, 0.5f), sink));  // inside the band: still held
  CHECK(hg.holding(Hand::Right));
  CHECK_FALSE(hg.update(Hand::Right, sample(0.03, 0.1f), sink));
  CHECK_FALSE(hg.holding(Hand::Right));
  REQUIRE(sink.grabs.size() == 1);
  CHECK(sink.grabs[0].first == Hand::Right);
  CHECK(sink.releases == std::vector<Hand>{Hand::Right});
  REQUIRE(sink.poses.size() == 4);
  CHECK(sink.poses[1].device == Device::RightHand);
  CHECK(sink.poses[1].time == 0.01);
  for (const PoseSample& p : sink.poses) CHECK(p.valid);
  CHECK(hg.counters().poses_received == 4);
  CHECK(hg.counters().grabs == 1);
}

TEST_CASE("untrusted poses go to the sim for it to reject and count - a squeeze waits for a trusted pose") {
  RecordingSink sink;
  HandGrabber hg;
  CHECK_FALSE(hg.update(Hand::Left, sample(0.0, 1.f, XR_SPACE_LOCATION_ORIENTATION_VALID_BIT), sink));
  HandSample nan = sample(0.01, 1.f);
  nan.grip.position.y = std::nanf("");
  CHECK_FALSE(hg.update(Hand::Left, nan, sink));
  REQUIRE(sink.poses.size() == 2);
  CHECK_FALSE(sink.poses[0].valid);  // flagged: the runtime does not vouch for it
  CHECK(sink.poses[1].valid);        // flagged valid, broken numbers: the sim's checks find them
  CHECK(std::isnan(sink.poses[1].pose.position.y));
  CHECK(sink.grabs.empty());
  CHECK(hg.update(Hand::Left, sample(0.02, 1.f), sink));  // still squeezed, now tracked: grab
  CHECK(sink.grabs.size() == 1);
  // The controller goes away while holding: released, and nothing is sent for a hand that is not there.
  HandSample gone;
  gone.time = 0.03;
  hg.update(Hand::Left, gone, sink);
  CHECK(sink.releases.size() == 1);
  CHECK(sink.poses.size() == 3);
}

TEST_CASE("the replayed stream grabs and releases each hand once per period") {
  ReplayConfig c;
  c.left_corner = {0.f, 0.8f, 0.f};
  c.right_corner = {1.f, 0.8f, 0.f};
  RecordingSink sink;
  HandGrabber hg;
  for (int i = 0; i <= 800; ++i) {  // two periods at 100 Hz
    const double t = i * 0.01;
    hg.update(Hand::Left, replay_hand(c, Hand::Left, t), sink);
    hg.update(Hand::Right, replay_hand(c, Hand::Right, t), sink);
  }
  CHECK(hg.counters().grabs == 4);
  CHECK(hg.counters().releases == 4);
  // Each grab happens at the corner (the hand has come down).
  for (const auto& [hand, pose] : sink.grabs) {
    const glm::vec3 corner = hand == Hand::Left ? c.left_corner : c.right_corner;
    CHECK(glm::length(pose.position - corner) < 0.01f);
  }
}

TEST_CASE("motion watch: a still controller keeps the replay - a moved one hands over") {
  MotionWatch w;
  HandSample s = sample(0, 0.f);
  for (int i = 0; i < 10; ++i) w.observe(Hand::Left, s);
  CHECK_FALSE(w.runtime_moves(Hand::Left));
  s.grip.position.x += 0.01f;
  w.observe(Hand::Left, s);
  CHECK(w.runtime_moves(Hand::Left));
  CHECK_FALSE(w.runtime_moves(Hand::Right));
  w.observe(Hand::Right, sample(0, 0.9f));
  CHECK(w.runtime_moves(Hand::Right));
}

TEST_CASE("trackers attach on their first trusted pose and stay attached across a disconnect") {
  RecordingSink sink;
  TrackerAttacher ta;
  Pose p;
  p.position = {0.5f, 0.9f, 0.f};
  ta.update(Device::Tracker1, true, XR_SPACE_LOCATION_POSITION_VALID_BIT, p, 0.0, sink);  // orientation invalid
  CHECK(sink.attaches.empty());
  REQUIRE(sink.poses.size() == 1);
  CHECK_FALSE(sink.poses[0].valid);  // sent flagged: the sim rejects and counts it
  ta.update(Device::Tracker1, true, kValid, p, 0.01, sink);
  CHECK(sink.attaches == std::vector<Device>{Device::Tracker1});
  ta.update(Device::Tracker1, false, 0, p, 0.02, sink);
  CHECK(ta.attached(Device::Tracker1));
  CHECK_FALSE(ta.connected(Device::Tracker1));
  CHECK(ta.disconnects() == 1);
  ta.update(Device::Tracker1, true, kValid, p, 0.03, sink);
  CHECK(sink.attaches.size() == 1);  // reconnect drives the same attachment
  CHECK(ta.poses_received() == 3);
  CHECK(sink.poses.size() == 3);
  ta.detach_all(sink);
  CHECK(sink.detaches == std::vector<Device>{Device::Tracker1});
}

TEST_CASE("a tracker whose first flagged-valid pose has broken numbers clips on only at a usable one") {
  RecordingSink sink;
  TrackerAttacher ta;
  Pose bad;
  bad.orientation = glm::quat(0.f, 0.f, 0.f, 0.f);  // what a runtime returns for an unlocated space
  ta.update(Device::Tracker0, true, kValid, bad, 0.0, sink);
  CHECK(sink.attaches.empty());
  Pose p;
  p.position = {0.5f, 0.9f, 0.f};
  ta.update(Device::Tracker0, true, kValid, p, 0.01, sink);
  CHECK(sink.attaches == std::vector<Device>{Device::Tracker0});
}

TEST_CASE("a tracker that drives a body part sends its poses and never clips onto the cloth") {
  RecordingSink sink;
  TrackerAttacher ta;
  ta.drive_body(Device::Tracker2);
  Pose p;
  p.position = {0.f, 0.95f, 0.f};
  ta.update(Device::Tracker2, true, kValid, p, 0.0, sink);
  ta.update(Device::Tracker2, true, kValid, p, 0.01, sink);
  CHECK(sink.attaches.empty());
  CHECK(sink.poses.size() == 2);
  CHECK_FALSE(ta.attached(Device::Tracker2));
  ta.update(Device::Tracker0, true, kValid, p, 0.02, sink);  // the others clip on as before
  CHECK(sink.attaches == std::vector<Device>{Device::Tracker0});
}
