#pragma once
// Controller hands to grabs: every located grip pose goes to the sim, flagged invalid when the runtime
// does not vouch for it (the sim thread checks and counts it); the squeeze value through a hysteresis latch
// grabs and releases, and a grab asks for a haptic pulse.
#include <array>
#include <cstdint>

#include <openxr/openxr.h>

#include "engine/input_sink.h"
#include "sim/pose.h"
#include "xr/hysteresis.h"
#include "xr/location_validity.h"

namespace weft::xr {

// One hand in one frame, as read from the runtime (or a replayed stream).
struct HandSample {
  double time = 0;                 // s, sim clock (the predicted display time)
  XrSpaceLocationFlags flags = 0;  // from xrLocateSpace on the grip space
  Pose grip;                       // stage frame = sim world frame
  float squeeze = 0.f;             // [0, 1]
  bool squeeze_active = false;     // the squeeze action is bound and its device connected
  float trigger = 0.f;             // [0, 1]: applies the hand's tool (xr/hand_tools.h)
  bool tool_button = false;        // the button that cycles the hand's tool, held down
};

struct GrabConfig {
  float radius = 0.04f;  // m, cloth within this distance of the grip point is taken
};

struct HandCounters {
  uint64_t poses_received = 0;  // located and sent to the sim (which rejects and counts the invalid ones)
  uint64_t grabs = 0;            // grab requests sent (whether they catch cloth is known on the sim thread)
  uint64_t releases = 0;
};

class HandGrabber {
 public:
  explicit HandGrabber(GrabConfig config = {}) : config_(config) {}
  // Returns true when a grab took place this frame (the caller sends the haptic pulse).
  bool update(Hand hand, const HandSample& sample, InputSink& sink);
  // Lets go of both hands (session lost focus or ends).
  void release_all(InputSink& sink);
  // Lets go of one hand and forgets its squeeze (its source changes: replay to live).
  void release(Hand hand, InputSink& sink);

  bool holding(Hand hand) const { return hands_[size_t(hand)].holding; }
  const HandCounters& counters() const { return counters_; }

 private:
  struct PerHand {
    HysteresisLatch latch = make_squeeze_latch();
    bool holding = false;
  };
  GrabConfig config_;
  std::array<PerHand, 2> hands_;
  HandCounters counters_;
};

}  // namespace weft::xr
