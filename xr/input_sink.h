#pragma once
// Where XR input goes: the narrow seam between the XR layer and whatever owns the World (the app's
// Runtime, through EngineInputSink; a World directly in tests). Poses carry their time on the
// caller's clock (the runtime clock in the app).
#include <cstddef>

#include "sim/pose.h"
#include "sim/world.h"

namespace weft::xr {

struct XrInputSink {
  virtual ~XrInputSink() = default;
  // Every accepted hand or tracker pose; false when the sim rejected it.
  virtual bool submit_pose(const PoseSample& sample) = 0;
  // Hold the cloth near pose with the hand; returns the vertices held.
  virtual size_t grab(Hand hand, const Pose& pose, float radius) = 0;
  virtual void release(Hand hand) = 0;
  // A tracker clips onto the cloth near pose and stays attached (an elastic attachment that
  // follows the tracker's poses) until detach; returns the vertices attached.
  virtual size_t attach_tracker(Device tracker, const Pose& pose, float radius) = 0;
  virtual void detach_tracker(Device tracker) = 0;
  // The device's poses now come from another source (live controllers after the built-in replay): the
  // sim's conditioning forgets its history, so the jump between the two is not rejected as an outlier.
  virtual void reset_device(Device) {}
};

// Feeds a World directly through its public API (tests of the session alone, no sim thread); a tracker
// clips on through World::attach_near.
class WorldInputSink final : public XrInputSink {
 public:
  explicit WorldInputSink(World& world) : world_(world) {}
  bool submit_pose(const PoseSample& sample) override { return world_.submit_pose(sample); }
  size_t grab(Hand hand, const Pose& pose, float radius) override { return world_.grab(hand, pose, radius); }
  void release(Hand hand) override { world_.release(hand); }
  size_t attach_tracker(Device tracker, const Pose& pose, float radius) override {
    ++attach_requests_;
    return world_.attach_near(tracker, pose, radius);
  }
  void detach_tracker(Device tracker) override { world_.detach(tracker); }
  size_t attach_requests() const { return attach_requests_; }

 private:
  World& world_;
  size_t attach_requests_ = 0;
};

}  // namespace weft::xr
