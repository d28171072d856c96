#pragma once
// Timestamped pose stream of one device (hand or tracker), kept in a fixed ring so pushing and
// sampling never allocate. Devices report at their own rate (e.g. 90 Hz); the sim samples the track at
// its tick times: interpolated between samples, extrapolated a bounded horizon past the last one.
#include <array>
#include <cstdint>

#include "sim/pose.h"

namespace weft {

// Why a pose sample was refused.
enum class PoseRejection : uint8_t {
  Accepted = 0,
  Flagged,        // the tracking system marked it invalid
  NonFinite,      // NaN or Inf in time, position or orientation
  NonUnit,        // |q|^2 differs from 1 by more than kUnitQuaternionTolerance
  TimeBackwards,  // older than the newest accepted sample
};
inline constexpr float kUnitQuaternionTolerance = 1e-3f;

// Accepted when the sample may enter the simulation, otherwise why not.
PoseRejection check_pose_sample(const PoseSample& sample);

class PoseTrack {
 public:
  static constexpr int kCapacity = 16;  // samples kept; ample for 90 Hz input sampled at >= 60 Hz

  // Appends a checked sample; a sample with the newest time replaces it. Returns the reason it was
  // refused (the track is then unchanged).
  PoseRejection push(const PoseSample& sample);
  void clear() { count_ = 0; head_ = 0; }
  bool empty() const { return count_ == 0; }
  int size() const { return count_; }
  double newest_time() const;
  // The i-th kept sample, 0 = oldest (i < size()).
  const PoseSample& sample_at(int i) const { return at(i); }

  // Pose at time t: held at the oldest sample before it, interpolated (lerp + slerp) between samples,
  // extrapolated with the last two samples' velocity for at most `horizon` seconds past the newest, then
  // brought back to the newest sample over the next `horizon` seconds and held there. Returns false when
  // the track is empty (out untouched).
  bool sample(double t, double horizon, Pose& out) const;

 private:
  const PoseSample& at(int i) const { return ring_[(head_ + i) % kCapacity]; }  // i = 0: oldest
  std::array<PoseSample, kCapacity> ring_{};
  int head_ = 0;   // index of the oldest sample
  int count_ = 0;
};

// Linear interpolation of position and shortest-arc slerp of orientation; s outside [0, 1] extrapolates
// (for the orientation: by the same relative rotation, scaled).
Pose interpolate_pose(const Pose& a, const Pose& b, float s);

}  // namespace weft
