// Stage 1 of the tick (sim/world_stages.h): the rigid world moves to the end of the tick.
#include <algorithm>
#include <cmath>

#include "sim/world_stages.h"

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

// The world pose of a device's collider: its grip offset in the device's frame.
Pose attached_pose(const Pose& device, const std::optional<Pose>& grip) {
  if (!grip) return device;
  return Pose{device.transform_point(grip->position), glm::normalize(device.orientation * grip->orientation)};
}

}  // namespace

void move_solids(const WorldModel& model, WorldState& state, float h) {
  const double t = state.cloth.time;
  const ElasticParams& elastic = model.config.interaction.elastic;
  for (Collider& c : state.colliders) {
    // A device's collider (a hand's palm) is pulled toward the device's pose like an elastic.
    Pose now, next;
    if (c.follows && device_pose(model, state, *c.follows, t, now) &&
        device_pose(model, state, *c.follows, t + 1.0 / model.config.tick_hz, next)) {
      now = attached_pose(now, c.grip);
      next = attached_pose(next, c.grip);
      c.linear_velocity = elastic_velocity(c.pose.position, now.position, next.position, h, elastic);
      if (c.grip) {
        // The same law for its turn: the device's own rate plus the lag taken back over tau, capped so
        // that no point of the collider moves faster than the elastics' max_speed.
        const float rate = -std::expm1(-h / elastic.tau) / h;
        glm::vec3 w = rotation_vector(next.orientation * glm::conjugate(now.orientation)) / h +
                      rate * rotation_vector(now.orientation * glm::conjugate(c.pose.orientation));
        const float reach = c.radius + (c.shape == ColliderShape::Capsule ? c.half_length : 0.f);
        c.angular_velocity = cap_speed(w, elastic.max_speed / std::max(reach, 1e-3f));
      }
    }
    advance_collider(c, h);
  }
  for (RigidBox& b : state.boxes) advance_rigid_box(b, model.cloth.material.gravity, h);
}

}  // namespace weft
