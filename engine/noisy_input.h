#pragma once
// An InputSink in front of another that passes every pose sample through a PoseNoise first: the
// "bad tracker" of the desktop J key and of `weft replay --noise`. Every other input passes unchanged
// (buttons, clips and resets are events, not tracked poses).
#include "engine/input_sink.h"
#include "engine/pose_noise.h"

namespace weft {

class NoisyInput final : public InputSink {
 public:
  NoisyInput(InputSink& next, const NoiseProfile& profile, uint64_t seed) : next_(next), noise_(profile, seed) {}

  bool enabled = true;  // off: samples pass untouched (the J key toggles it)

  void submit_pose(const PoseSample& sample) override {
    PoseSample s = sample;
    if (!enabled || noise_.apply(s)) next_.submit_pose(s);  // else lost on the way (PoseNoise counts it)
  }
  void grab(Hand hand, const Pose& pose, float radius) override { next_.grab(hand, pose, radius); }
  void release(Hand hand) override { next_.release(hand); }
  void attach(Device device, const Pose& pose, float radius) override { next_.attach(device, pose, radius); }
  void detach(Device device) override { next_.detach(device); }
  void reset() override { next_.reset(); }
  void reset_device(Device device) override { next_.reset_device(device); }
  void tool(const ToolAction& action) override { next_.tool(action); }

  const PoseNoise& noise() const { return noise_; }

 private:
  InputSink& next_;
  PoseNoise noise_;
};

}  // namespace weft
