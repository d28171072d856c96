#pragma once
// Thumb-index pinch from XR_EXT_hand_tracking joints: the distance between the thumb tip and the
// index tip through a hysteresis latch. A frame where either tip is not tracked leaves the latch
// as it was (a brief dropout does not drop the cloth) and is counted.
#include <cstdint>

#include <openxr/openxr.h>

#include "xr/hysteresis.h"

namespace weft::xr {

// Thumb tip to index tip in metres; false when either joint's position is not valid.
bool pinch_distance(const XrHandJointLocationEXT* joints, uint32_t joint_count, float& distance_m);

class PinchDetector {
 public:
  Edge update(const XrHandJointLocationEXT* joints, uint32_t joint_count);
  bool pinched() const { return latch_.engaged(); }
  Edge reset() { return latch_.reset(); }
  uint64_t dropped_frames() const { return dropped_; }
  float last_distance() const { return last_distance_; }

 private:
  HysteresisLatch latch_ = make_pinch_latch();
  uint64_t dropped_ = 0;
  float last_distance_ = 0.f;
};

}  // namespace weft::xr
