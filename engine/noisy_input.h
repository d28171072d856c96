#pragma once
// An InputSink in front of another that passes every pose sample through a PoseNoise first: the
// "bad tracker" of the desktop J key and of `weft replay --noise`. Grab and release pass unchanged
// (they are button events, not tracked poses).
#include "engine/input_sink.h"
#include "engine/pose_noise.h"

namespace weft {

class NoisyInput : public InputSink {
 public:
  NoisyInput(InputSink& next, const NoiseProfile& profile, uint64_t seed) : next_(next), noise_(profile, seed) {}

  bool enabled = true;  // off: samples pass untouched (the J key toggles it)

  bool submit_pose(const PoseSample& sample) override {
    if (!enabled) return next_.submit_pose(sample);
    PoseSample s = sample;
    if (!noise_.apply(s)) return false;  // lost on the way
    return next_.submit_pose(s);
  }
  size_t grab(Hand hand, const Pose& pose, float radius) override { return next_.grab(hand, pose, radius); }
  void release(Hand hand) override { next_.release(hand); }

  const PoseNoise& noise() const { return noise_; }

 private:
  InputSink& next_;
  PoseNoise noise_;
};

}  // namespace weft
