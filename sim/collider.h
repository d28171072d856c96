#pragma once
// Rigid primitives the cloth collides with (floor, table, hands, forearms, boxes), static or moving,
// and the collision response of Volino, Courchesne & Thalmann 1995 section 3.5: positions corrected
// to satisfy the contact, velocities by momentum conservation, perfectly inelastic along the normal and
// Coulomb friction (static and kinetic) along the tangent.
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "sim/contact_axes.h"
#include "sim/vertex_set.h"

#include "sim/pose.h"

namespace weft {

enum class ColliderShape : uint8_t {
  Plane,    // through pose.position, normal = pose.orientation * +y; solid below
  Sphere,   // centre pose.position, radius
  Capsule,  // segment along the local y axis from -half_length to +half_length, radius
  Box,      // half_extents along the local axes
};

struct Collider {
  ColliderShape shape = ColliderShape::Plane;
  Pose pose;                       // where it is at the end of the current tick
  Pose previous_pose;              // where it was at the start of the tick (set by advance_collider)
  glm::vec3 half_extents{0.5f};    // box, m
  float radius = 0.1f;             // sphere, capsule, m
  float half_length = 0.1f;        // capsule, m
  glm::vec3 linear_velocity{0.f};  // m/s; a moving collider's pose advances by it each tick
  glm::vec3 angular_velocity{0.f}; // rad/s, world frame, about pose.position
  float mu_static = 0.5f;          // Coulomb static friction coefficient
  float mu_kinetic = 0.4f;         // Coulomb kinetic friction coefficient
  // A collider driven by a device (a hand's collider): each tick World::step sets linear_velocity by the
  // elastic law toward the device's tracked pose (time constant, speed cap), so a hand found again far
  // away after a dropout moves there over tau, not through the cloth in one tick. Empty: moves by its
  // own velocities.
  std::optional<Device> follows;
  // Where the collider sits in the followed device's frame (a palm or forearm in the hand's grip frame, a
  // body part in its tracker's): set, the collider's centre follows device pose * grip and it turns with
  // the device; empty, only its centre follows the device's position (a sphere on a tracker).
  std::optional<Pose> grip;
  // Part of a body (a hand's palm or forearm, a mannequin's limb): the cloth's depth inside it is the
  // step's body penetration (StepReport::body_penetration_m). The floor and props are not.
  bool body = false;
  // A device's collider standing aside (sim/driven_collider.h): far below the stage, touching nothing, while
  // its device is unseen, jumps or holds.
  bool parked = false;
  // Parked before its device was first seen or while it held: it comes back only where it lands clear of the
  // cloth. Parked for a gap or a jump while on its device: it comes back at once, wherever the device is.
  bool wait_clear = false;
};

// Signed distance from x to the collider's surface (negative inside) and the outward unit normal at
// the closest surface point.
float collider_distance(const Collider& c, const glm::vec3& x, glm::vec3& normal);

// As collider_distance, but a point found inside a box leaves through the face it entered by: the face
// that x_prev (the point at the start of the tick, in the box frame at the start of the tick) was
// outside of. A fast vertex (or a fast box) that ends deep inside is then not pushed out through the
// far side, which would let cloth and box pass through each other.
float collider_contact(const Collider& c, const glm::vec3& x, const glm::vec3& x_prev, glm::vec3& normal);

// Swept test for a box: whether the segment from x_prev (start of the tick, box at previous_pose) to x
// (end of the tick, box at pose) entered the box grown by `margin` from outside. A vertex fast enough to
// cross a thin box in one tick ends outside it, where collider_contact cannot see it. On a hit, `entry`
// is the world point where it entered (in the end-of-tick frame) and `normal` the face it came through.
bool swept_box_entry(const Collider& c, const glm::vec3& x_prev, const glm::vec3& x, float margin, glm::vec3& entry,
                     glm::vec3& normal);

// The same for any closed collider (box: swept_box_entry; sphere and capsule: the distance along the
// segment, convex for a convex shape, is searched for its minimum and, when that is inside, bisected for
// the entry, in the end-of-tick frame). False for a plane: a half-space cannot be crossed and left.
bool swept_entry(const Collider& c, const glm::vec3& x_prev, const glm::vec3& x, glm::vec3& entry, glm::vec3& normal);

// World-axis box [lo, hi] that contains the collider; false (unbounded) for a plane.
bool collider_bounds(const Collider& c, glm::vec3& lo, glm::vec3& hi);

// Velocity of the collider's material point at x (rigid motion).
glm::vec3 collider_point_velocity(const Collider& c, const glm::vec3& x);

// Advances a moving collider's pose by its velocities over h (previous_pose keeps the old one).
void advance_collider(Collider& c, float h);

// Contact velocity response (Volino 1995 section 3.5): given the relative velocity v_rel of a vertex
// against the surface with normal n, removes an approaching normal component (perfectly inelastic) and
// applies Coulomb friction with the normal velocity change dv_n as the normal impulse per unit mass:
// sticks when |v_t| <= mu_s dv_n, else reduces |v_t| by mu_k dv_n. Returns the new relative velocity.
glm::vec3 contact_response(const glm::vec3& v_rel, const glm::vec3& n, float mu_static, float mu_kinetic);

struct CollisionStats {
  uint32_t contacts = 0;  // vertex-collider contacts resolved in the last pass
};

// What a collision pass reads and reports besides the state (all optional).
// Whether a held patch meets this collider as a whole (sim/held_clearance.h) rather than vertex by vertex:
// shapes with edges and corners, where vertices pushed out along different normals tear the patch (a
// plane pushes every vertex along one normal: it flattens a patch pressed into it, no more), and not
// a collider that follows a device (a hand's own collider holds the patch it grabbed).
inline bool clears_held_patches(const Collider& c) { return c.shape != ColliderShape::Plane && !c.follows; }

struct CollisionPassIo {
  uint8_t* in_contact = nullptr;       // nvert: a vertex found in contact gets 1 (others are left as they are)
  ContactAxes* axes = nullptr;         // every contact's normal is added; a vertex friction stops sets `stuck`
  const VertexSet* only = nullptr;     // look only at these vertices (the others are where the last pass left them)
  VertexSet* moved = nullptr;          // every vertex whose position changes is added
  const uint8_t* skip = nullptr;       // nvert: vertices left to the colliders that clears_held_patches (held
                                       // patches, cleared before the step) and pushed out by the others
  const uint8_t* kinematic = nullptr;  // nvert: pinned, held and tracked vertices, which a collider that follows a
                                       // device leaves to their pin or elastic (a forearm pushed cube_drop's
                                       // pinned border 5 cm: 627 % on an edge between two pins)
  const uint8_t* held_by = nullptr;    // nvert: bit d set while device d holds the vertex (or it slides out of
                                       // d's grip); a collider following d leaves it alone: a hand's own palm
                                       // does not push out what the hand holds
  const uint8_t* slip = nullptr;       // nvert: vertices an open seam drove this tick (WorldScratch::seam_slip):
                                       // kept out, but not held back by friction
  const Collider* world = nullptr;     // every collider (null: those passed): a device's collider does not
  size_t nworld = 0;                   // press cloth into one that stands still (pressed_into_still)
};

// Whether pushing x along n would press it into a collider that neither follows a device nor moves (the floor,
// a table) within `reach` of it: there the hand gives way, as the still collider outranks it in the solve
// (sim/contact_filter.h). A palm coming down onto a corner lying on the floor squeezed it out at up to 4 m/s
// (`weft stress` two_hand: 13 speed clamps noise-free, 57 under jitter2).
bool pressed_into_still(const Collider* colliders, size_t ncollider, const glm::vec3& x, const glm::vec3& n, float reach);

// Whether collider c leaves vertex i to its own device's grasp (CollisionPassIo::held_by).
inline bool held_by_own_device(const Collider& c, const uint8_t* held_by, size_t i) {
  return held_by && c.follows && ((held_by[i] >> int(*c.follows)) & 1u);
}

// The deepest any free vertex sits inside the body colliders (Collider::body), m; 0 when every vertex is
// outside. Not counted: vertices a collider's own device holds, and the colliders of a device that holds a
// patch or lets one slide out (bit d of `holding`): the cloth in and around a fist that holds it.
float body_penetration(const Collider* colliders, size_t ncollider, const float* inv_mass, const glm::vec3* x,
                       size_t nvert, const uint8_t* held_by, uint8_t holding = 0);

// Post-step pass over all free vertices (inv_mass > 0): a vertex closer than `thickness` to a collider
// gets its velocity through contact_response and the tangential part of the step's h v motion redone with
// that velocity (so static friction really holds it), then is pushed out to the thickness along the normal
// (a vertex landing on a still collider ends on it, not back where the step began). x_prev (the
// positions at the start of the step) tells through which face a vertex entered a box, and a vertex
// that crossed a box, sphere or capsule entirely within the tick (swept_entry) is brought back to where it
// entered. The response only removes approaching normal velocity and friction only slows sliding, so a
// contact never adds kinetic energy. Held (kinematic) vertices are pushed out like the others unless
// io.skip leaves them out: World moves each held patch out of the colliders as a whole before the step
// (sim/held_clearance.h) and skips them here. Pushed out one by one, a patch dragged over a table's edge
// tore (an edge of the held patch read 72-82 % in the table scene's demo); left to their hand with
// nothing before the step, they went through the table (216 %).
void resolve_collisions(const Collider* colliders, size_t ncollider, float thickness, float h, const float* inv_mass,
                        const glm::vec3* x_prev, glm::vec3* x, glm::vec3* v, size_t nvert, CollisionStats& stats,
                        const CollisionPassIo& io = {});

}  // namespace weft
