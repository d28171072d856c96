#pragma once
// XR input into the engine's InputSink (the same pose/grab path the desktop mouse and the scripted
// demo use; DirectWorldInput holds grasped vertices until the sim's own grasp lands), plus what the
// engine's sink has no notion of: trackers. It remembers each tracker's last accepted pose and
// whether it is clipped on, for the snapshot's tracker gizmos.
#include <array>
#include <cstdint>

#include "engine/input_sink.h"
#include "engine/snapshot.h"
#include "xr/input_sink.h"

namespace weft::xr {

class EngineInputSink final : public XrInputSink {
 public:
  explicit EngineInputSink(InputSink& inner) : inner_(inner) {}

  bool submit_pose(const PoseSample& sample) override;
  size_t grab(Hand hand, const Pose& pose, float radius) override { return inner_.grab(hand, pose, radius); }
  void release(Hand hand) override { inner_.release(hand); }
  // The sim has no tracker attachment yet (grasping, issue 3): the request is counted and the
  // tracker's poses still reach the World through submit_pose. Returns 0 vertices.
  size_t attach_tracker(Device tracker, const Pose& pose, float radius) override;
  void detach_tracker(Device tracker) override;

  // Tracker gizmos: active once a pose arrived, grabbing while clipped on.
  void fill_trackers(ClothSnapshot& snapshot) const;
  uint64_t attach_requests() const { return attach_requests_; }

 private:
  InputSink& inner_;
  std::array<DeviceGizmo, 4> trackers_{};
  uint64_t attach_requests_ = 0;
};

}  // namespace weft::xr
