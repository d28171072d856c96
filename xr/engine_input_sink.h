#pragma once
// XR input into the engine's Runtime: hand poses, grabs and releases through its InputSink (the same
// path the desktop mouse and the scripted demo use), tracker clips as attach/detach events and source
// changes as device resets, all applied on the sim thread at tick boundaries. It remembers which
// trackers are clipped on, for the tracker gizmos the eyes draw.
#include <array>
#include <cstdint>

#include "engine/runtime.h"
#include "engine/snapshot.h"
#include "xr/input_sink.h"

namespace weft::xr {

class EngineInputSink final : public XrInputSink {
 public:
  explicit EngineInputSink(Runtime& runtime) : runtime_(runtime) {}

  // Queued for the sim thread: true means sent (its checks count rejections in TickStats).
  bool submit_pose(const PoseSample& sample) override { return runtime_.input().submit_pose(sample); }
  // Returns 0: whether a grab caught cloth is known on the sim thread (TickStats grabs / grab_misses,
  // the snapshot's grasp bits).
  size_t grab(Hand hand, const Pose& pose, float radius) override { return runtime_.input().grab(hand, pose, radius); }
  void release(Hand hand) override { runtime_.input().release(hand); }
  size_t attach_tracker(Device tracker, const Pose& pose, float radius) override;
  void detach_tracker(Device tracker) override;
  void reset_device(Device device) override { runtime_.reset_device(device); }

  // Marks the clipped-on trackers' gizmos as holding.
  void mark_clipped(ClothSnapshot& snapshot) const;
  uint64_t attach_requests() const { return attach_requests_; }

 private:
  Runtime& runtime_;
  std::array<bool, 4> clipped_{};
  uint64_t attach_requests_ = 0;
};

}  // namespace weft::xr
