#include "xr/hand_grabber.h"

namespace weft::xr {

bool HandGrabber::update(Hand hand, const HandSample& s, InputSink& sink) {
  PerHand& h = hands_[size_t(hand)];
  // All-zero flags and no squeeze: no device. Anything else is forwarded as it is; the sim checks it.
  if (s.flags != 0 || s.squeeze_active) {
    PoseSample ps;
    ps.time = s.time;
    ps.device = hand_device(hand);
    ps.pose = s.grip;
    ps.valid = location_flags_valid(s.flags);
    sink.submit_pose(ps);
    ++counters_.poses_received;
  }
  // A grab needs a place the runtime vouches for, in numbers the sim takes: it waits for one.
  const bool pose_ok = location_flags_valid(s.flags) && pose_finite_unit(s.grip);

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
