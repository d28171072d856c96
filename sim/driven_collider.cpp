#include "sim/driven_collider.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/quaternion.hpp>

namespace weft {
namespace {

// The rotation vector (axis times angle, rad) of a unit quaternion, the short way round.
glm::vec3 rotation_vector(glm::quat q) {
  if (q.w < 0.f) q = -q;
  const glm::vec3 im(q.x, q.y, q.z);
  const float s = glm::length(im);
  if (s < 1e-9f) return 2.f * im;
  return im * (2.f * std::atan2(s, q.w) / s);
}

float reach(const Collider& c) { return c.radius + (c.shape == ColliderShape::Capsule ? c.half_length : 0.f); }

void park(Collider& c) {
  c.parked = true;
  c.pose.position = kParkedPosition;
  c.previous_pose = c.pose;
  c.linear_velocity = c.angular_velocity = glm::vec3(0.f);
}

}  // namespace

bool lands_clear(const Collider& c, const Pose& at, const glm::vec3* x, size_t n, float margin) {
  Collider placed = c;
  placed.pose = at;
  glm::vec3 lo, hi, normal;
  if (!collider_bounds(placed, lo, hi)) return true;
  lo -= glm::vec3(margin), hi += glm::vec3(margin);
  for (size_t i = 0; i < n; ++i) {
    const glm::vec3& p = x[i];
    if (p.x < lo.x || p.y < lo.y || p.z < lo.z || p.x > hi.x || p.y > hi.y || p.z > hi.z) continue;
    if (collider_distance(placed, p, normal) <= margin) return false;
  }
  return true;
}

float placement_distance(const Collider& c, const Pose& a, const Pose& b) {
  const float turn = c.grip ? glm::length(rotation_vector(b.orientation * glm::conjugate(a.orientation))) : 0.f;
  return glm::distance(a.position, b.position) + turn * reach(c);
}

void drive_collider(Collider& c, const DeviceMotion& device, const glm::vec3* x, size_t n, float margin, float h,
                    const ElasticParams& elastic) {
  // Faster than the cap the collider may move at: a jump, not a hand.
  const bool jumping =
      !device.known || device.jumping || placement_distance(c, device.now, device.next) > elastic.max_speed * h;
  if (jumping || device.holds || (!c.parked && placement_distance(c, c.pose, device.now) > kStandAsideLag)) {
    c.wait_clear = c.wait_clear || device.holds;
    park(c);
    return;
  }
  if (c.parked) {  // back on the device, at its velocity, without sweeping from where it stood
    Pose at = c.pose;
    at.position = device.next.position;
    if (c.grip) at.orientation = device.next.orientation;
    // Not inside the cloth a hand is first seen in or let go of: it waits, parked, until the hand is out of it.
    // After a gap or a jump it comes back at once (the cloth it pushed was wrapped round it: waiting, the push
    // stopped; `weft stress` hand_sweep under all and nan noise); what it lands around is left to leave.
    if (c.wait_clear && !lands_clear(c, at, x, n, margin)) {
      park(c);
      return;
    }
    c.parked = c.wait_clear = false;
    c.pose.position = device.next.position;
    if (c.grip) c.pose.orientation = device.next.orientation;  // without a grip only its centre follows
    c.previous_pose = c.pose;
    c.linear_velocity = (device.next.position - device.now.position) / h;
    c.angular_velocity = c.grip ? rotation_vector(device.next.orientation * glm::conjugate(device.now.orientation)) / h
                                : glm::vec3(0.f);
    return;
  }
  c.linear_velocity = elastic_velocity(c.pose.position, device.now.position, device.next.position, h, elastic);
  if (c.grip) {
    // The same law for its turn: the device's own rate plus the lag taken back over tau, capped so that no
    // point of the collider moves faster than the elastics' max_speed.
    const float rate = -std::expm1(-h / elastic.tau) / h;
    const glm::vec3 w = rotation_vector(device.next.orientation * glm::conjugate(device.now.orientation)) / h +
                        rate * rotation_vector(device.now.orientation * glm::conjugate(c.pose.orientation));
    c.angular_velocity = cap_speed(w, elastic.max_speed / std::max(reach(c), 1e-3f));
  }
  advance_collider(c, h);
}

}  // namespace weft
