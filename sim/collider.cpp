#include "sim/collider.h"

#include <algorithm>
#include <cmath>

namespace weft {
namespace {

float box_distance(const glm::vec3& he, const glm::vec3& p, glm::vec3& n_local) {
  const glm::vec3 q = glm::abs(p) - he;
  const glm::vec3 outside = glm::max(q, glm::vec3(0.f));
  const float out_len = glm::length(outside);
  if (out_len > 0.f) {
    n_local = glm::sign(p) * outside / out_len;
    return out_len;
  }
  // inside: leave through the nearest face
  int axis = 0;
  if (q.y > q[axis]) axis = 1;
  if (q.z > q[axis]) axis = 2;
  n_local = glm::vec3(0.f);
  n_local[axis] = p[axis] < 0.f ? -1.f : 1.f;
  return q[axis];
}

float sphere_distance(const glm::vec3& centre, float radius, const glm::vec3& x, glm::vec3& normal) {
  const glm::vec3 d = x - centre;
  const float len = glm::length(d);
  normal = len > 1e-12f ? d / len : glm::vec3(0.f, 1.f, 0.f);
  return len - radius;
}

}  // namespace

float collider_distance(const Collider& c, const glm::vec3& x, glm::vec3& normal) {
  switch (c.shape) {
    case ColliderShape::Plane:
      normal = c.pose.orientation * glm::vec3(0.f, 1.f, 0.f);
      return glm::dot(x - c.pose.position, normal);
    case ColliderShape::Sphere: return sphere_distance(c.pose.position, c.radius, x, normal);
    case ColliderShape::Capsule: {
      const glm::vec3 axis = c.pose.orientation * glm::vec3(0.f, 1.f, 0.f);
      const float s = glm::clamp(glm::dot(x - c.pose.position, axis), -c.half_length, c.half_length);
      return sphere_distance(c.pose.position + s * axis, c.radius, x, normal);
    }
    case ColliderShape::Box: {
      glm::vec3 n_local;
      const float d = box_distance(c.half_extents, c.pose.inverse_transform_point(x), n_local);
      normal = c.pose.orientation * n_local;
      return d;
    }
  }
  normal = glm::vec3(0.f, 1.f, 0.f);
  return INFINITY;
}

float collider_contact(const Collider& c, const glm::vec3& x, const glm::vec3& x_prev, glm::vec3& normal) {
  const float d = collider_distance(c, x, normal);
  if (c.shape != ColliderShape::Box || d >= 0.f) return d;
  const glm::vec3 p = c.pose.inverse_transform_point(x);
  const glm::vec3 q_prev = glm::abs(c.previous_pose.inverse_transform_point(x_prev)) - c.half_extents;
  int axis = 0;
  if (q_prev.y > q_prev[axis]) axis = 1;
  if (q_prev.z > q_prev[axis]) axis = 2;
  if (q_prev[axis] <= 0.f) return d;  // was inside already: nearest face
  const float side = c.previous_pose.inverse_transform_point(x_prev)[axis] < 0.f ? -1.f : 1.f;
  glm::vec3 n_local(0.f);
  n_local[axis] = side;
  normal = c.pose.orientation * n_local;
  return side * p[axis] - c.half_extents[axis];
}

bool swept_box_entry(const Collider& c, const glm::vec3& x_prev, const glm::vec3& x, float margin, glm::vec3& entry,
                     glm::vec3& normal) {
  if (c.shape != ColliderShape::Box) return false;
  // Both ends in the box's own frame (start in the start-of-tick frame): the relative motion.
  const glm::vec3 p0 = c.previous_pose.inverse_transform_point(x_prev), p1 = c.pose.inverse_transform_point(x);
  const glm::vec3 he = c.half_extents + glm::vec3(margin);
  if (glm::all(glm::lessThanEqual(glm::abs(p0), he))) return false;  // started inside: not a crossing
  // Slab test (Kay-Kajiya): the segment's parameter interval inside each slab, intersected.
  const glm::vec3 d = p1 - p0;
  float t_in = 0.f, t_out = 1.f;
  int axis = -1;
  for (int k = 0; k < 3; ++k) {
    if (std::abs(d[k]) < 1e-12f) {
      if (std::abs(p0[k]) > he[k]) return false;
      continue;
    }
    float a = (-he[k] - p0[k]) / d[k], b = (he[k] - p0[k]) / d[k];
    if (a > b) std::swap(a, b);
    if (a > t_in) {
      t_in = a;
      axis = k;
    }
    t_out = std::min(t_out, b);
    if (t_in > t_out) return false;
  }
  if (axis < 0) return false;
  glm::vec3 n_local(0.f);
  n_local[axis] = d[axis] > 0.f ? -1.f : 1.f;  // the face facing the start point
  entry = c.pose.transform_point(p0 + t_in * d);
  normal = c.pose.orientation * n_local;
  return true;
}

bool swept_entry(const Collider& c, const glm::vec3& x_prev, const glm::vec3& x, glm::vec3& entry, glm::vec3& normal) {
  if (c.shape == ColliderShape::Plane) return false;
  if (c.shape == ColliderShape::Box) return swept_box_entry(c, x_prev, x, 0.f, entry, normal);
  glm::vec3 n;
  // A moving sphere or capsule (a hand, a limb) is searched in its own frame, the start point in the
  // start-of-tick frame: the relative motion. A vertex at rest that a palm sweeps over, or one that a
  // turning forearm passes, crosses it there though it did not move in the world. A collider that did not
  // move keeps the world-frame segment (the same arithmetic as before for the static scenes).
  const bool moved = c.pose.position != c.previous_pose.position || c.pose.orientation != c.previous_pose.orientation;
  const glm::vec3 a = moved ? c.previous_pose.inverse_transform_point(x_prev) : x_prev;
  const glm::vec3 b = moved ? c.pose.inverse_transform_point(x) : x;
  Collider local = c;
  if (moved) local.pose = Pose{};
  auto distance_at = [&](float t) { return collider_distance(local, a + t * (b - a), n); };
  if (distance_at(0.f) < 0.f) return false;  // started inside: not a crossing
  // distance to a convex set is convex along a line: ternary search for its minimum
  float lo = 0.f, hi = 1.f;
  for (int k = 0; k < 40; ++k) {
    const float p = lo + (hi - lo) / 3.f, q = hi - (hi - lo) / 3.f;
    if (distance_at(p) < distance_at(q)) hi = q;
    else lo = p;
  }
  float inside = 0.5f * (lo + hi);
  if (distance_at(inside) >= 0.f) return false;
  float outside = 0.f;  // then bisect between the start (outside) and that point (inside) for the entry
  for (int k = 0; k < 30; ++k) {
    const float mid = 0.5f * (outside + inside);
    (distance_at(mid) >= 0.f ? outside : inside) = mid;
  }
  entry = a + outside * (b - a);
  if (moved) entry = c.pose.transform_point(entry);
  collider_distance(c, entry, normal);
  return true;
}

glm::vec3 collider_point_velocity(const Collider& c, const glm::vec3& x) {
  return c.linear_velocity + glm::cross(c.angular_velocity, x - c.pose.position);
}

void advance_collider(Collider& c, float h) {
  c.previous_pose = c.pose;
  c.pose.position += h * c.linear_velocity;
  const float w = glm::length(c.angular_velocity);
  if (w > 0.f) c.pose.orientation = glm::normalize(glm::angleAxis(w * h, c.angular_velocity / w) * c.pose.orientation);
}

bool pressed_into_still(const Collider* colliders, size_t ncollider, const glm::vec3& x, const glm::vec3& n, float reach) {
  for (size_t k = 0; k < ncollider; ++k) {
    const Collider& s = colliders[k];
    if (s.follows || s.linear_velocity != glm::vec3(0.f) || s.angular_velocity != glm::vec3(0.f)) continue;
    glm::vec3 ns;
    // within reach of its surface and pushed toward it (more than 12 degrees into it)
    if (collider_distance(s, x, ns) < reach && glm::dot(n, ns) < -0.2f) return true;
  }
  return false;
}

glm::vec3 contact_response(const glm::vec3& v_rel, const glm::vec3& n, float mu_static, float mu_kinetic) {
  const float vn = glm::dot(v_rel, n);
  if (vn >= 0.f) return v_rel;  // separating: no impulse, no friction
  const float dvn = -vn;        // perfectly inelastic: the normal relative velocity becomes 0
  glm::vec3 vt = v_rel - vn * n;
  const float vt_len = glm::length(vt);
  if (vt_len <= mu_static * dvn) return glm::vec3(0.f);  // static friction: sticks
  vt *= std::max(0.f, 1.f - mu_kinetic * dvn / vt_len);  // kinetic friction opposes sliding
  return vt;
}

bool collider_bounds(const Collider& c, glm::vec3& lo, glm::vec3& hi) {
  const glm::mat3 R = glm::mat3_cast(c.pose.orientation);
  glm::vec3 extent;
  switch (c.shape) {
    case ColliderShape::Plane: return false;
    case ColliderShape::Sphere: extent = glm::vec3(c.radius); break;
    case ColliderShape::Capsule: extent = glm::abs(R[1]) * c.half_length + glm::vec3(c.radius); break;
    case ColliderShape::Box:  // |R| h: the half extents of the rotated box along the world axes
      extent = glm::abs(R[0]) * c.half_extents.x + glm::abs(R[1]) * c.half_extents.y + glm::abs(R[2]) * c.half_extents.z;
      break;
  }
  lo = c.pose.position - extent;
  hi = c.pose.position + extent;
  return true;
}

void resolve_collisions(const Collider* colliders, size_t ncollider, float thickness, float h, const float* inv_mass,
                        const glm::vec3* x_prev, glm::vec3* x, glm::vec3* v, size_t nvert, CollisionStats& stats,
                        const CollisionPassIo& io) {
  stats.contacts = 0;
  const VertexSet* only = io.only;
  const size_t count = only ? only->size() : nvert;
  auto vertex = [&](size_t k) { return only ? size_t(only->list[k]) : k; };
  const Collider* world = io.world ? io.world : colliders;
  const size_t nworld = io.world ? io.nworld : ncollider;
  // Culling: the cloth's bounding box (start and end of the step, for the swept test) against each
  // collider's world box, then each vertex's motion against that box grown by the thickness; most
  // vertex-collider pairs are rejected with a few comparisons.
  glm::vec3 cloth_lo(INFINITY), cloth_hi(-INFINITY);
  for (size_t k = 0; k < count; ++k) {
    const size_t i = vertex(k);
    cloth_lo = glm::min(cloth_lo, glm::min(x[i], x_prev[i]));
    cloth_hi = glm::max(cloth_hi, glm::max(x[i], x_prev[i]));
  }
  for (size_t c = 0; c < ncollider; ++c) {
    const Collider& col = colliders[c];
    glm::vec3 lo(-INFINITY), hi(INFINITY);
    const bool plane = col.shape == ColliderShape::Plane;
    const uint8_t* skip = clears_held_patches(col) ? io.skip : col.follows ? io.kinematic : nullptr;
    const glm::vec3 plane_normal = col.pose.orientation * glm::vec3(0.f, 1.f, 0.f);
    const bool moving = col.pose.position != col.previous_pose.position ||
                        col.pose.orientation != col.previous_pose.orientation;
    Collider before = col;  // where it was at the start of the tick
    before.pose = col.previous_pose;
    if (collider_bounds(col, lo, hi)) {
      // a moving collider's box covers where it was at the start of the tick too (the swept test's reach)
      if (moving) {
        glm::vec3 lo0, hi0;
        collider_bounds(before, lo0, hi0);
        lo = glm::min(lo, lo0);
        hi = glm::max(hi, hi0);
      }
      lo -= thickness;
      hi += thickness;
      if (glm::any(glm::greaterThan(lo, cloth_hi)) || glm::any(glm::lessThan(hi, cloth_lo))) continue;
    }
    for (size_t k = 0; k < count; ++k) {
      const size_t i = vertex(k);
      if (inv_mass[i] == 0.f || (skip && skip[i]) || held_by_own_device(col, io.held_by, i)) continue;
      const glm::vec3 p = x[i];
      const glm::vec3 mlo = plane ? p : glm::min(p, x_prev[i]), mhi = plane ? p : glm::max(p, x_prev[i]);
      if (mhi.x < lo.x || mhi.y < lo.y || mhi.z < lo.z || mlo.x > hi.x || mlo.y > hi.y || mlo.z > hi.z) continue;
      if (plane && glm::dot(p - col.pose.position, plane_normal) >= thickness) continue;
      glm::vec3 n;
      // A device's collider leaves what was inside it at the start of the tick (the cloth around the fist
      // that holds it, a patch sliding out of the grip) to leave it on its own: pushed out, the neighbours of
      // a held patch were torn from it (the hanging demo with hand colliders: 1100 % strain, 572 clamps).
      if (col.follows && collider_distance(before, x_prev[i], n) < 0.f) continue;
      float d = collider_contact(col, x[i], x_prev[i], n);
      if (col.follows && d < thickness && pressed_into_still(world, nworld, x[i], n, 2.f * thickness)) continue;
      bool swept = false;
      if (d < thickness && moving && !plane && col.shape != ColliderShape::Box) {
        // Ended within the thickness of a moving sphere or capsule on the side it did not come from: its
        // nearest surface is the far side (a thin forearm moving 2.2 cm a tick, its diameter 2 cm, pushed the
        // cloth out behind it). If its path relative to the collider went through it, back to where it
        // entered, as for a crossing.
        const glm::vec3 carried = col.pose.transform_point(col.previous_pose.inverse_transform_point(x_prev[i]));
        glm::vec3 entry, n_entry;
        if (glm::dot(n, x[i] - carried) > 0.f && swept_entry(col, x_prev[i], x[i], entry, n_entry)) {
          x[i] = entry;
          n = n_entry;
          d = 0.f;
          swept = true;
        }
      }
      if (d >= thickness) {
        glm::vec3 entry;
        // the motion relative to the collider: a palm sweeping over a vertex at rest crosses it too
        const glm::vec3 rel = moving ? col.pose.inverse_transform_point(x[i]) - col.previous_pose.inverse_transform_point(x_prev[i])
                                     : x[i] - x_prev[i];
        if (glm::length(rel) < thickness || !swept_entry(col, x_prev[i], x[i], entry, n)) continue;
        // Crossed the collider within the tick: back to where it entered; the response below stops it there.
        x[i] = entry;
        d = 0.f;
        swept = true;
      }
      ++stats.contacts;
      if (io.in_contact) io.in_contact[i] = 1;
      const glm::vec3 vc = collider_point_velocity(col, x[i]);
      const glm::vec3 v_rel = v[i] - vc;
      if (glm::dot(v_rel, n) < 0.f) {
        // The step moved the vertex by h v; redo that part with the corrected velocity (so static
        // friction holds it), keeping any earlier correction of the position (strain limiting).
        const bool slips = io.slip && io.slip[i];
        const glm::vec3 v_out = contact_response(v_rel, n, slips ? 0.f : col.mu_static, slips ? 0.f : col.mu_kinetic);
        if (io.axes && v_out == glm::vec3(0.f)) io.axes->stuck = true;
        const glm::vec3 v_new = vc + v_out;
        if (!swept) {  // a swept vertex is already where the contact began
          // A landing on a still collider (the redo would lift it back out by more than the thickness): only
          // across the normal, the push-out below sets the rest. Redoing the normal part too sent a vertex
          // landing at 4.3 m/s back to where the tick began, 1.8 cm over the floor and stopped; the cloth
          // falling onto it compressed its edges to 0.5 and threw it at 6-8 m/s. (Moving colliders, a palm
          // sweeping over the cloth, keep the whole redo: without it vertices tunnelled through a palm.)
          const glm::vec3 dv = v_new - v[i];
          const float back = h * glm::dot(dv, n);
          x[i] += back > thickness && !moving ? h * (dv - glm::dot(dv, n) * n) : h * dv;
          d = collider_contact(col, x[i], x_prev[i], n);
        }
        v[i] = v_new;
      }
      if (d < thickness) x[i] += (thickness - d) * n;
      if (io.axes) io.axes->add(n);
      if (io.moved && x[i] != p) io.moved->insert(uint32_t(i));
    }
  }
}

}  // namespace weft

namespace weft {

float body_penetration(const Collider* colliders, size_t ncollider, const float* inv_mass, const glm::vec3* x,
                       size_t nvert, const uint8_t* held_by, uint8_t holding) {
  float deepest = 0.f;
  for (size_t c = 0; c < ncollider; ++c) {
    const Collider& col = colliders[c];
    glm::vec3 lo, hi;
    if (!col.body || !collider_bounds(col, lo, hi)) continue;
    if (col.follows && ((holding >> int(*col.follows)) & 1u)) continue;
    for (size_t i = 0; i < nvert; ++i) {
      const glm::vec3 p = x[i];
      if (inv_mass[i] == 0.f || glm::any(glm::lessThan(p, lo)) || glm::any(glm::greaterThan(p, hi))) continue;
      if (held_by_own_device(col, held_by, i)) continue;
      glm::vec3 n;
      deepest = std::max(deepest, -collider_distance(col, p, n));
    }
  }
  return deepest;
}

}  // namespace weft
