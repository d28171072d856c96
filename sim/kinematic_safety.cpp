#include "sim/kinematic_safety.h"

#include <algorithm>
#include <cmath>

namespace weft {

glm::quat rotate_toward(const glm::quat& from, const glm::quat& to, float max_angle) {
  glm::quat q = to;
  if (glm::dot(from, q) < 0.f) q = -q;  // shortest arc
  const glm::quat rel = glm::conjugate(from) * q;
  const float sin_half = std::sqrt(std::max(0.f, rel.x * rel.x + rel.y * rel.y + rel.z * rel.z));
  const float angle = 2.f * std::atan2(sin_half, rel.w);
  if (angle <= max_angle || sin_half < 1e-7f) return glm::normalize(q);
  const glm::vec3 axis = glm::vec3(rel.x, rel.y, rel.z) / sin_half;
  return glm::normalize(from * glm::angleAxis(max_angle, axis));
}

bool reanchor_safe_target(SafeTarget& s, const Pose& grab, float h, const KinematicLimits& limits) {
  const glm::vec3 goal = limits.stage.clamp(grab.position);
  if (s.valid && !s.catching_up && glm::length(goal - s.pose.position) <= limits.max_speed * h) return false;
  s.valid = false;
  advance_safe_target(s, grab, h, limits);
  return true;
}

Pose advance_safe_target(SafeTarget& s, const Pose& target, float h, const KinematicLimits& limits,
                         float catch_up_time) {
  if (!s.valid) {
    s.valid = true;
    s.pose.position = limits.stage.clamp(target.position);
    s.pose.orientation = target.orientation;
    s.velocity = s.smoothed_velocity = glm::vec3(0.f);
    s.last_target = s.pose.position;
    s.catching_up = false;
    return s.pose;
  }
  const glm::vec3 goal = limits.stage.clamp(target.position);
  const glm::vec3 e = goal - s.pose.position;
  float target_speed = glm::length(goal - s.last_target) / h;
  if (!(target_speed <= limits.max_speed)) target_speed = 0.f;  // a spike's own jump is no velocity
  s.last_target = goal;
  glm::vec3 v = e / h;  // lands on the target: what every plausible motion gets
  const float dv_max = limits.max_acceleration * h;
  if (glm::length(v - s.velocity) <= dv_max && glm::length(v) <= limits.max_speed) {
    s.catching_up = false;
  } else {
    // Implausible (a spike, a teleport): head for the target no faster than one can still stop from, as if
    // it stood still (time-optimal approach), within the speed and acceleration caps.
    const float dist = glm::length(e);
    float speed = std::min({dist / h, std::sqrt(2.f * limits.max_acceleration * dist), limits.max_speed});
    if (catch_up_time > 0.f && glm::length(v) > limits.max_speed) s.catching_up = true;
    if (s.catching_up) speed = std::min(speed, target_speed + dist / catch_up_time);
    v = dist > 0.f ? e * (speed / dist) : glm::vec3(0.f);
  }
  glm::vec3 dv = v - s.velocity;
  const float dv_len = glm::length(dv);
  if (dv_len > dv_max) dv *= dv_max / dv_len;
  s.velocity += dv;
  const glm::vec3 next = limits.stage.clamp(s.pose.position + h * s.velocity);
  s.velocity = (next - s.pose.position) / h;  // a wall of the stage stops it
  s.pose.position = next;
  s.smoothed_velocity += float(-std::expm1(-h / kSmoothingTime)) * (s.velocity - s.smoothed_velocity);
  s.pose.orientation = rotate_toward(s.pose.orientation, target.orientation, limits.max_angular_speed * h);
  return s.pose;
}

}  // namespace weft
