#pragma once
// Input conditioning on the pose path (issue 7): every hand and tracker sample passes here before
// World::submit_pose. It complements the World's own rejection (flagged, non-finite, non-unit, time
// going backwards: never reaches the state) with what needs a history of the device:
//   - orientation renormalised when only slightly off unit length (a common, harmless tracker defect),
//     rejected when far off;
//   - outlier gating: a sample implying a hand speed above max_speed (default 10 m/s) is rejected; when
//     the tracker stays "away" consistently for reacquire_s, the new place is accepted (re-acquired);
//   - the first samples are not trusted blindly: a device's first sample must lie on the stage, and for its
//     first probation_samples accepted samples two later samples that agree with each other (but not with
//     those) replace them at once, so one wrong first sample does not get the good ones gated as outliers;
//   - an optional One Euro filter against jitter.
// Together with the elastic time constant and speed cap inside the World, this keeps the cloth sane.
#include <array>
#include <cstdint>

#include "engine/one_euro_filter.h"
#include "sim/kinematic_safety.h"
#include "sim/pose.h"

namespace weft {

struct ConditionerConfig {
  bool enabled = true;
  float max_speed = 10.f;               // m/s: faster than a plausible hand (ball throws peak near 20, hand motion in
                                        // manipulation stays well below 5)
  double reacquire_s = 0.2;             // s of consistent "too far" samples after which the new place is accepted
  float quaternion_tolerance = 0.2f;    // | |q| - 1 | up to this is renormalised, beyond it rejected
  double min_dt = 1e-3;                 // s: speed is measured over at least this (equal timestamps)
  StageBounds stage;                    // a device's first sample must lie in it (sim/kinematic_safety.h)
  int probation_samples = 3;            // accepted samples before the first place is trusted
  OneEuroParams one_euro;
};

enum class ConditionVerdict : uint8_t {
  Accepted = 0,
  Flagged,        // the tracker marked it invalid
  NonFinite,      // NaN or Inf anywhere
  BadQuaternion,  // zero or far from unit length
  TimeBackwards,  // older than the last accepted sample of the device
  Outlier,        // implies a speed above max_speed
  OffStage,       // a device's first sample (nothing trusted yet) outside the stage bounds
  Count
};
const char* verdict_name(ConditionVerdict v);

class PoseConditioner {
 public:
  explicit PoseConditioner(const ConditionerConfig& config = {}) : config_(config) {}

  // Checks and rewrites (renormalise, filter) the sample in place. Anything but Accepted: drop it.
  ConditionVerdict condition(PoseSample& sample);
  void reset();  // forget every device's history (scene reset)
  void reset(Device device);  // forget one device's history (its poses now come from another source)

  ConditionerConfig& config() { return config_; }
  const ConditionerConfig& config() const { return config_; }
  uint64_t count(ConditionVerdict v) const { return counts_[size_t(v)]; }
  uint64_t rejected() const;
  uint64_t reacquired() const { return reacquired_; }

 private:
  struct DeviceState {
    bool has_last = false;
    int agreeing = 0;                  // samples accepted since the device was (re)acquired
    double last_time = 0;
    glm::vec3 last_position{0.f};      // last accepted, before filtering
    bool rejecting = false;            // in a streak of outliers
    double streak_start = 0;
    double last_rejected_time = 0;
    glm::vec3 last_rejected{0.f};
    OneEuroFilter filter;
  };
  ConditionVerdict tally(ConditionVerdict v) {
    ++counts_[size_t(v)];
    return v;
  }

  ConditionerConfig config_;
  std::array<DeviceState, kDeviceCount> devices_{};
  std::array<uint64_t, size_t(ConditionVerdict::Count)> counts_{};
  uint64_t reacquired_ = 0;
};

}  // namespace weft
