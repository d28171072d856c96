#include "engine/pose_conditioner.h"

#include <algorithm>
#include <cmath>

namespace weft {
namespace {

bool finite(const PoseSample& s) {
  const glm::vec3& p = s.pose.position;
  const glm::quat& q = s.pose.orientation;
  return std::isfinite(s.time) && std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z) &&
         std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

}  // namespace

const char* verdict_name(ConditionVerdict v) {
  switch (v) {
    case ConditionVerdict::Accepted: return "accepted";
    case ConditionVerdict::Flagged: return "flagged";
    case ConditionVerdict::NonFinite: return "non_finite";
    case ConditionVerdict::BadQuaternion: return "bad_quaternion";
    case ConditionVerdict::TimeBackwards: return "time_backwards";
    case ConditionVerdict::Outlier: return "outlier";
    case ConditionVerdict::OffStage: return "off_stage";
    default: return "?";
  }
}

uint64_t PoseConditioner::rejected() const {
  uint64_t n = 0;
  for (size_t v = 1; v < counts_.size(); ++v) n += counts_[v];
  return n;
}

void PoseConditioner::reset() {
  for (DeviceState& d : devices_) d = DeviceState{};
}

void PoseConditioner::reset(Device device) {
  const int di = device_index(device);
  if (di >= 0 && di < kDeviceCount) devices_[size_t(di)] = DeviceState{};
}

ConditionVerdict PoseConditioner::condition(PoseSample& s) {
  const int di = device_index(s.device);
  if (!config_.enabled || di < 0 || di >= kDeviceCount) return tally(ConditionVerdict::Accepted);
  if (!s.valid) return tally(ConditionVerdict::Flagged);
  if (!finite(s)) return tally(ConditionVerdict::NonFinite);
  const float qn = glm::length(s.pose.orientation);
  if (!(std::abs(qn - 1.f) <= config_.quaternion_tolerance)) return tally(ConditionVerdict::BadQuaternion);
  s.pose.orientation = s.pose.orientation / qn;

  DeviceState& d = devices_[di];
  if (!d.has_last && !config_.stage.contains(s.pose.position)) return tally(ConditionVerdict::OffStage);
  if (d.has_last) {
    if (s.time < d.last_time) return tally(ConditionVerdict::TimeBackwards);
    const double dt = std::max(s.time - d.last_time, config_.min_dt);
    const double speed = double(glm::length(s.pose.position - d.last_position)) / dt;
    if (speed > config_.max_speed) {
      // Re-acquire only once the tracker has stayed at its new place, moving plausibly, for reacquire_s:
      // a lone spike is never accepted, a tracker that really was moved (or lost and found) is.
      const bool consistent =
          d.rejecting && s.time >= d.last_rejected_time &&
          double(glm::length(s.pose.position - d.last_rejected)) /
                  std::max(s.time - d.last_rejected_time, config_.min_dt) <= config_.max_speed;
      if (!consistent) d.streak_start = s.time;
      d.rejecting = true;
      d.last_rejected = s.pose.position;
      d.last_rejected_time = s.time;
      // On probation (the first samples of a device), two samples that agree with each other and lie on the
      // stage outweigh the few accepted before them: those were the outliers.
      const bool probation = d.agreeing < config_.probation_samples && config_.stage.contains(s.pose.position);
      if (!(consistent && (probation || s.time - d.streak_start >= config_.reacquire_s)))
        return tally(ConditionVerdict::Outlier);
      ++reacquired_;
      d.agreeing = 0;
      d.filter.reset();
    }
  }
  d.rejecting = false;
  if (d.agreeing < config_.probation_samples) ++d.agreeing;
  const double dt = d.has_last ? s.time - d.last_time : 0.0;
  d.has_last = true;
  d.last_time = s.time;
  d.last_position = s.pose.position;
  if (config_.one_euro.enabled) d.filter.filter(s.pose.position, s.pose.orientation, dt, config_.one_euro);
  return tally(ConditionVerdict::Accepted);
}

}  // namespace weft
