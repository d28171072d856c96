#include "xr/hand_grabber.h"

namespace weft::xr {

bool HandGrabber::update(Hand hand, const HandSample& s, InputSink& sink) {
  PerHand& h = hands_[size_t(hand)];
  const bool pose_ok = location_flags_valid(s.flags) && pose_finite_unit(s.grip);
  if (pose_ok) {
    PoseSample ps;
    ps.time = s.time;
    ps.device = hand_device(hand);
    ps.pose = s.grip;
    sink.submit_pose(ps);
    ++counters_.poses_received;
  } else if (s.flags != 0 || s.squeeze_active) {
    ++counters_.invalid_poses;  // a device that reports but cannot be trusted (all-zero flags: no device)
  }

  const Edge edge = s.squeeze_active ? h.latch.update(s.squeeze) : h.latch.reset();
  if (edge == Edge::Released && h.holding) {
    sink.release(hand);
    h.holding = false;
    ++counters_.releases;
  }
  // Squeezed but not yet holding: take hold on the first frame with a trusted pose.
  if (h.latch.engaged() && !h.holding && pose_ok) {
    sink.grab(hand, s.grip, config_.radius);
    h.holding = true;
    ++counters_.grabs;
    return true;
  }
  return false;
}

void HandGrabber::release(Hand hand, InputSink& sink) {
  PerHand& h = hands_[size_t(hand)];
  h.latch.reset();
  if (h.holding) {
    sink.release(hand);
    h.holding = false;
    ++counters_.releases;
  }
}

void HandGrabber::release_all(InputSink& sink) {
  for (int i = 0; i < 2; ++i) release(Hand(i), sink);
}

}  // namespace weft::xr
