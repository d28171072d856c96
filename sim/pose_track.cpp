#include "sim/pose_track.h"

#include <cmath>

namespace weft {

PoseRejection check_pose_sample(const PoseSample& sample) {
  if (!sample.valid) return PoseRejection::Flagged;
  const Pose& p = sample.pose;
  bool finite = std::isfinite(sample.time);
  for (int k = 0; k < 3; ++k) finite = finite && std::isfinite(p.position[k]);
  for (int k = 0; k < 4; ++k) finite = finite && std::isfinite(p.orientation[k]);
  if (!finite) return PoseRejection::NonFinite;
  const float qn = glm::dot(p.orientation, p.orientation);
  if (std::abs(qn - 1.f) > kUnitQuaternionTolerance) return PoseRejection::NonUnit;
  return PoseRejection::Accepted;
}

double PoseTrack::newest_time() const { return count_ ? at(count_ - 1).time : -INFINITY; }

PoseRejection PoseTrack::push(const PoseSample& sample) {
  if (const PoseRejection r = check_pose_sample(sample); r != PoseRejection::Accepted) return r;
  if (count_ > 0) {
    const double newest = newest_time();
    if (sample.time < newest) return PoseRejection::TimeBackwards;
    if (sample.time == newest) {
      ring_[(head_ + count_ - 1) % kCapacity] = sample;
      return PoseRejection::Accepted;
    }
  }
  if (count_ == kCapacity) {
    head_ = (head_ + 1) % kCapacity;
    --count_;
  }
  ring_[(head_ + count_) % kCapacity] = sample;
  ++count_;
  return PoseRejection::Accepted;
}

Pose interpolate_pose(const Pose& a, const Pose& b, float s) {
  Pose out;
  out.position = a.position + s * (b.position - a.position);
  glm::quat qb = b.orientation;
  if (glm::dot(a.orientation, qb) < 0.f) qb = -qb;  // shortest arc
  // a * (a^-1 b)^s, written with angle-axis so s may leave [0, 1]
  const glm::quat rel = glm::conjugate(a.orientation) * qb;
  const float angle = 2.f * std::acos(glm::clamp(rel.w, -1.f, 1.f));
  const float sin_half = std::sqrt(std::max(0.f, 1.f - rel.w * rel.w));
  if (sin_half < 1e-6f) {
    out.orientation = a.orientation;
  } else {
    const glm::vec3 axis = glm::vec3(rel.x, rel.y, rel.z) / sin_half;
    out.orientation = glm::normalize(a.orientation * glm::angleAxis(s * angle, axis));
  }
  return out;
}

bool PoseTrack::sample(double t, double horizon, Pose& out) const {
  if (count_ == 0) return false;
  if (count_ == 1 || t <= at(0).time) {
    out = (t <= at(0).time) ? at(0).pose : at(count_ - 1).pose;
    return true;
  }
  // Samples are few (<= 16): a backwards linear scan from the newest finds the bracket fastest when t
  // is near the present, which it almost always is.
  int i = count_ - 1;
  if (t >= at(i).time) {
    const PoseSample& a = at(i - 1);
    const PoseSample& b = at(i);
    // Out to the horizon along the last velocity, then back to the newest sample over the next horizon:
    // a device that goes silent (a mouse that stops, a lost tracker) settles on its last known pose
    // instead of staying overshot, and the target never jumps.
    const double dt = t - b.time, hz = std::max(0.0, horizon);
    const double ahead = dt <= hz ? dt : std::max(0.0, 2 * hz - dt);
    out = interpolate_pose(a.pose, b.pose, float(1.0 + ahead / (b.time - a.time)));
    return true;
  }
  while (i > 0 && at(i - 1).time > t) --i;
  const PoseSample& a = at(i - 1);
  const PoseSample& b = at(i);
  out = interpolate_pose(a.pose, b.pose, float((t - a.time) / (b.time - a.time)));
  return true;
}

}  // namespace weft
