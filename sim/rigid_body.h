#pragma once
// A free rigid box that falls onto the cloth and exchanges momentum with it (Volino & Thalmann 1997
// Fig. 5b: "the cube falls, bumps and slips on the surface"). Deliberately simple: gravity, contact
// impulses with cloth vertices and with static planes (at its 8 corners), no box-box contacts.
#include <cstdint>

#include <glm/glm.hpp>

#include "sim/collider.h"

namespace weft {

struct RigidBox {
  // --- constant
  glm::vec3 half_extents{0.1f};  // m
  float mass = 1.f;              // kg
  float mu_static = 0.5f;        // Coulomb coefficients against cloth and planes
  float mu_kinetic = 0.4f;
  // --- state
  Pose pose;                        // centre of mass and orientation
  Pose previous_pose;               // at the start of the tick (set by advance_rigid_box)
  glm::vec3 linear_velocity{0.f};   // m/s
  glm::vec3 angular_velocity{0.f};  // rad/s, world frame

  // The box as a collider at its current pose and velocity.
  Collider as_collider() const;
  // World inertia tensor about the centre: R I_body R^T.
  glm::mat3 world_inertia() const;
  // World inverse inertia applied to a vector: R I_body^-1 R^T w.
  glm::vec3 inverse_inertia_times(const glm::vec3& w) const;
  // Velocity of the body's material point at x.
  glm::vec3 point_velocity(const glm::vec3& x) const;
  // Applies impulse j (N s) at world point x.
  void apply_impulse(const glm::vec3& j, const glm::vec3& x);
  glm::vec3 momentum() const { return mass * linear_velocity; }
};

// Gravity and free motion over h (symplectic Euler; orientation by the exact rotation of w h).
void advance_rigid_box(RigidBox& box, const glm::vec3& gravity, float h);

// Contacts between cloth vertices and the box, resolved pairwise with the two-body effective mass so
// that the total momentum is conserved: inelastic along the normal, Coulomb along the tangent (the
// normal impulse bounds the friction impulse). The penetration is split by inverse mass (mass-centre
// invariance, Volino 1995 section 3.5). Kinematic vertices (pins, held patches) do not give: the box
// takes the whole exchange there (pushed by the crate, cube_drop.json's pinned border sank 2 cm and the
// edges between its pins reached 60 %). Returns the number of contacts.
uint32_t resolve_cloth_box(RigidBox& box, float thickness, const float* inv_mass, const glm::vec3* x_prev,
                           glm::vec3* x, glm::vec3* v, size_t nvert, const uint8_t* kinematic = nullptr);

// The box's corners against a static plane collider (infinite mass).
void resolve_box_plane(RigidBox& box, const Collider& plane);

}  // namespace weft
