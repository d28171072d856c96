#include "sim/rigid_body.h"

#include <cmath>

namespace weft {
namespace {

// Normal impulse magnitude and friction for a contact between a point (inverse mass wi, velocity vi) and
// the box at r; returns the impulse on the point (the box gets its opposite).
glm::vec3 pair_impulse(const RigidBox& box, float wi, const glm::vec3& vi, const glm::vec3& x, const glm::vec3& n) {
  const glm::vec3 r = x - box.pose.position;
  const glm::vec3 v_rel = vi - box.point_velocity(x);
  const float vn = glm::dot(v_rel, n);
  if (vn >= 0.f) return glm::vec3(0.f);
  // Effective inverse mass along a unit direction u: wi + 1/M + (r x u) . I^-1 (r x u)
  auto inv_eff = [&](const glm::vec3& u) {
    const glm::vec3 ru = glm::cross(r, u);
    return wi + 1.f / box.mass + glm::dot(ru, box.inverse_inertia_times(ru));
  };
  const float jn = -vn / inv_eff(n);
  glm::vec3 j = jn * n;
  const glm::vec3 vt = v_rel - vn * n;
  const float vt_len = glm::length(vt);
  if (vt_len > 1e-9f) {
    const glm::vec3 t = vt / vt_len;
    const float jt_stick = vt_len / inv_eff(t);  // impulse that stops the sliding
    const float jt = jt_stick <= box.mu_static * jn ? jt_stick : std::min(jt_stick, box.mu_kinetic * jn);
    j -= jt * t;
  }
  return j;
}

}  // namespace

Collider RigidBox::as_collider() const {
  Collider c;
  c.shape = ColliderShape::Box;
  c.pose = pose;
  c.previous_pose = previous_pose;
  c.half_extents = half_extents;
  c.linear_velocity = linear_velocity;
  c.angular_velocity = angular_velocity;
  c.mu_static = mu_static;
  c.mu_kinetic = mu_kinetic;
  return c;
}

namespace {
// The box's principal moments about its centre: m/12 (b^2 + c^2), ...
glm::vec3 principal_inertia(const RigidBox& box) {
  const glm::vec3 s = 2.f * box.half_extents;
  return box.mass / 12.f * glm::vec3(s.y * s.y + s.z * s.z, s.x * s.x + s.z * s.z, s.x * s.x + s.y * s.y);
}
}  // namespace

glm::mat3 RigidBox::world_inertia() const {
  const glm::mat3 R = glm::mat3_cast(pose.orientation);
  const glm::vec3 inertia = principal_inertia(*this);
  return R * glm::mat3(inertia.x, 0, 0, 0, inertia.y, 0, 0, 0, inertia.z) * glm::transpose(R);
}

glm::vec3 RigidBox::inverse_inertia_times(const glm::vec3& w) const {
  const glm::vec3 inertia = principal_inertia(*this);
  const glm::vec3 local = glm::conjugate(pose.orientation) * w;
  return pose.orientation * (local / inertia);
}

glm::vec3 RigidBox::point_velocity(const glm::vec3& x) const {
  return linear_velocity + glm::cross(angular_velocity, x - pose.position);
}

void RigidBox::apply_impulse(const glm::vec3& j, const glm::vec3& x) {
  linear_velocity += j / mass;
  angular_velocity += inverse_inertia_times(glm::cross(x - pose.position, j));
}

void advance_rigid_box(RigidBox& box, const glm::vec3& gravity, float h) {
  box.previous_pose = box.pose;
  box.linear_velocity += h * gravity;
  box.pose.position += h * box.linear_velocity;
  const float w = glm::length(box.angular_velocity);
  if (w > 0.f)
    box.pose.orientation = glm::normalize(glm::angleAxis(w * h, box.angular_velocity / w) * box.pose.orientation);
}

uint32_t resolve_cloth_box(RigidBox& box, float thickness, const float* inv_mass, const glm::vec3* x_prev,
                           glm::vec3* x, glm::vec3* v, size_t nvert, const uint8_t* kinematic) {
  uint32_t contacts = 0;
  const float wb = 1.f / box.mass;
  for (size_t i = 0; i < nvert; ++i) {
    glm::vec3 n;
    const float d = collider_contact(box.as_collider(), x[i], x_prev[i], n);
    if (d >= thickness) continue;
    ++contacts;
    const float wi = kinematic && kinematic[i] ? 0.f : inv_mass[i];
    const glm::vec3 j = pair_impulse(box, wi, v[i], x[i], n);
    v[i] += wi * j;
    box.apply_impulse(-j, x[i]);
    // split the penetration by inverse mass: the mass centre of the pair stays put
    const float depth = thickness - d;
    x[i] += (wi / (wi + wb)) * depth * n;
    box.pose.position -= (wb / (wi + wb)) * depth * n;
  }
  return contacts;
}

void resolve_box_plane(RigidBox& box, const Collider& plane) {
  const glm::vec3 n = plane.pose.orientation * glm::vec3(0.f, 1.f, 0.f);
  float deepest = 0.f;
  for (int k = 0; k < 8; ++k) {
    const glm::vec3 local((k & 1 ? 1.f : -1.f) * box.half_extents.x, (k & 2 ? 1.f : -1.f) * box.half_extents.y,
                          (k & 4 ? 1.f : -1.f) * box.half_extents.z);
    const glm::vec3 corner = box.pose.transform_point(local);
    const float d = glm::dot(corner - plane.pose.position, n);
    if (d >= 0.f) continue;
    deepest = std::min(deepest, d);
    box.apply_impulse(-pair_impulse(box, 0.f, glm::vec3(0.f), corner, -n), corner);
  }
  box.pose.position -= deepest * n;
}

}  // namespace weft
