#pragma once
// Tracking noise injection (issue 7): rewrites pose samples the way a bad tracker delivers them, so the
// cloth's robustness can be measured (Volino & Thalmann 1997: stable "even when the noise becomes too
// high for interaction use", and under "a few erroneous values which would send the object far away").
// Every model is seeded and composable: a profile turns any subset on. Independent of the simulator.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/noise_rng.h"
#include "sim/pose.h"

namespace weft {

struct NoiseProfile {
  std::string name = "none";
  double position_sigma_m = 0;         // Gaussian position jitter, per axis, m
  double orientation_sigma_deg = 0;    // Gaussian rotation jitter, per axis of the rotation vector, degrees
  double spike_probability = 0;        // chance per sample of an outlier ...
  double spike_magnitude_m = 0;        // ... thrown this far in a random direction, m
  double dropout_probability = 0;      // chance per sample that it is lost ...
  double frozen_fraction = 0.5;        // ... of which this fraction repeats the last delivered pose (frozen)
  double latency_s = 0;                // the delivered pose is this old (timestamp still "now")
  double timestamp_jitter_s = 0;       // Gaussian error on the timestamp, s
  double nan_probability = 0;          // chance per sample to start a burst of non-finite samples ...
  int nan_burst = 1;                   // ... this many samples long (NaN and Inf alternate)
  double nonunit_probability = 0;      // chance the orientation arrives scaled by 1 +- up to nonunit_scale
  double nonunit_scale = 0.3;
  double backwards_probability = 0;    // chance the timestamp jumps back by backwards_s
  double backwards_s = 0.02;

  bool any() const;
};

// A named profile, optionally followed by overrides: "jitter10", "none,spike_probability=0.05",
// "all,latency_s=0.05". Throws std::invalid_argument naming the bad part and the known names.
NoiseProfile noise_profile(const std::string& spec);
// The stress matrix's levels: none, jitter2, jitter10, spikes, dropouts, all, nan.
const std::vector<std::string>& noise_profile_names();

struct NoiseStats {
  uint64_t samples = 0, dropped = 0, frozen = 0, spikes = 0, non_finite = 0, nonunit = 0, backwards = 0;
};

class PoseNoise {
 public:
  PoseNoise(const NoiseProfile& profile, uint64_t seed);

  // Rewrites the sample as the noisy tracker delivers it. Returns false when the sample is lost.
  // Order: latency, dropout (lost or frozen), jitter, spike, non-unit quaternion, non-finite burst,
  // timestamp jitter, time going backwards. No allocation.
  bool apply(PoseSample& sample);
  bool last_was_spike() const { return last_spike_; }
  const NoiseStats& stats() const { return stats_; }
  const NoiseProfile& profile() const { return profile_; }

 private:
  static constexpr int kHistory = 64;  // true samples kept per device for the latency model
  struct DeviceState {
    std::array<PoseSample, kHistory> history{};
    int head = 0, count = 0;           // ring of true samples, head = next write
    bool has_delivered = false;
    Pose delivered;                     // last pose delivered (the frozen pose of a dropout)
    double last_time = 0;
    int nan_left = 0;                   // samples left in the current non-finite burst
  };
  Pose delayed_pose(DeviceState& d, const PoseSample& s) const;

  NoiseProfile profile_;
  NoiseRng rng_;
  std::array<DeviceState, kDeviceCount> devices_{};
  NoiseStats stats_;
  bool last_spike_ = false;
};

}  // namespace weft
