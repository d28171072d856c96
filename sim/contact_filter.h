#pragma once
// Collider contacts kept inside the implicit solve: Volino & Thalmann 1997 section 2.3's force correction
// (B), "enforces the maintaining of collision distances between iterations", applied as Baraff & Witkin
// 1998's filter (section 5.3), and friction as a force of the same solve. A vertex resting on a collider
// has its end-of-step velocity along the contact normal fixed at the collider's; its tangent directions
// stay free, slowed by Coulomb friction written as an implicit tangential damping, c = mu N / max(|v_t|,
// v_stick): a sliding vertex feels mu_k N against its slip, a resting one mu_s N / v_stick per m/s of creep
// (under 1 mm/s while the load is within the static cone). The solve then moves the rest of the cloth
// knowing what these vertices do, instead of sinking them by h^2 g and springing their neighbours before a
// pass after the step pushes them back, and stops them (a pass that stopped a vertex after the solve had
// moved its neighbours for it stretched the edges between them: a cloth lying on a table gained elastic
// energy every tick).
//
// Which vertices: those within the contact thickness of a collider at the start of the step (the pass
// after the step leaves a landed vertex exactly there) and not moving away from it. N is the normal
// impulse the constraint took last step, read from the solve (gravity's share on first contact); a contact
// that had to pull (the cloth lifting off) is let go. Along the normal a static collider does no work, and
// the friction is a damping: the constraint adds no energy. A vertex arriving from above meets the
// collider pass after the step as before (sim/collider.h); the step after, sim/landing_filter.h decides
// whether the filter holds it yet.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/sym3.h"

namespace weft {

struct ClothModel;
struct Collider;
struct ForceBuffers;

struct ContactFilter {
  static constexpr uint32_t kNone = UINT32_MAX;
  // One entry per constrained vertex, in the order the colliders found them.
  std::vector<uint32_t> vertex;
  std::vector<glm::vec3> normal;     // the contact's outward unit normal
  std::vector<float> dv_normal;      // the velocity change along normal the solve must give the vertex, m/s
  std::vector<float> friction;       // h c: the friction damping's weight on the tangent block, kg
  std::vector<glm::vec3> slip;       // tangential velocity relative to the collider at the start, m/s
  // Written by the solve: the constraint's normal impulse per unit mass, m/s; > 0 pushed the vertex out,
  // < 0 held it against the collider (let go the next step).
  std::vector<float> impulse;
  std::vector<uint32_t> entry_of_vertex;  // per vertex: its entry, or kNone (nvert)
  std::vector<float> distance;            // while building: the entry's distance to its collider, m
  std::vector<glm::vec3> work;            // record_contact_impulses: the contact's impulse on the vertex, N s
  // The rigid box the entry rests on (its index in WorldState::boxes), or kNone for a static or driven
  // collider: the box takes the contact's reaction (sim/box_coupling.h).
  std::vector<uint32_t> body;
  uint32_t body_of(size_t k) const { return k < body.size() ? body[k] : kNone; }  // kNone where unrecorded
  // record_contact_impulses: the vertex's diagonal block of the step's matrix W_ii along the normal and across
  // it, kg: how much the contact's impulse grows per m/s its box moves the vertex, lumped (sim/box_coupling.h).
  std::vector<glm::vec2> lumped_mass;

  void resize(size_t vertex_count);  // capacity for every vertex: building never allocates
  size_t size() const { return vertex.size(); }
  bool empty() const { return vertex.empty(); }
  void clear();
  // Drops the entries for which keep(k) is false, keeping the others in order (and entry_of_vertex true).
  template <class Keep>
  void keep_if(Keep keep) {
    size_t kept = 0;
    for (size_t k = 0; k < vertex.size(); ++k) {
      const uint32_t i = vertex[k];
      if (!keep(k)) {
        entry_of_vertex[i] = kNone;
        continue;
      }
      vertex[kept] = i;
      normal[kept] = normal[k];
      dv_normal[kept] = dv_normal[k];
      friction[kept] = friction[k];
      slip[kept] = slip[k];
      impulse[kept] = impulse[k];
      distance[kept] = distance[k];
      if (k < body.size()) body[kept] = body[k];
      entry_of_vertex[i] = uint32_t(kept);
      ++kept;
    }
    for (auto* u : {&dv_normal, &friction, &impulse, &distance}) u->resize(kept);
    for (auto* u : {&normal, &slip}) u->resize(kept);
    body.resize(std::min(body.size(), kept));
    vertex.resize(kept);
  }

  // The friction's damping on W's diagonal block and its force on the right-hand side, for entry k:
  // W_ii += h c (I - n n^T), b_i -= h c v_t.
  void add_friction(size_t k, Sym3& diag, glm::vec3& b) const {
    const float hc = friction[k];
    diag += Sym3::identity(hc);
    diag += Sym3::outer(normal[k], -hc);
    b -= hc * slip[k];
  }
  // dv with each constrained vertex's normal component set to its dv_normal.
  void impose(glm::vec3* dv) const {
    for (size_t k = 0; k < vertex.size(); ++k) {
      glm::vec3& d = dv[vertex[k]];
      d += (dv_normal[k] - glm::dot(d, normal[k])) * normal[k];
    }
  }
};

// Builds `out` (this step's contacts) from the colliders at their end-of-step poses, positions and
// velocities at the start of the step, and `last` (the previous step's filter, with its impulses).
// Kinematic and infinite-mass vertices are left to their own constraint. The colliders from first_box on
// stand for the rigid boxes (RigidBox::as_collider, in WorldState::boxes' order): their entries name the box.
void find_resting_contacts(const Collider* colliders, size_t ncollider, float thickness, const glm::vec3& gravity,
                           float h, const float* mass, const uint8_t* kinematic, const glm::vec3* x,
                           const glm::vec3* v, const ContactFilter& last, ContactFilter& out,
                           const uint8_t* held_by = nullptr,  // CollisionPassIo::held_by
                           size_t first_box = SIZE_MAX);

// After the solve: each contact's normal impulse per unit mass, n . (W dv - h f)_i / m_i, with W the
// implicit step's matrix (Kang & Cho Eq. 14 with relative damping: M - h^2 J + h C_d, the drag on the
// diagonal) from the forces it was built of (the friction is tangential: it does not enter).
void record_contact_impulses(const ClothModel& model, const ForceBuffers& forces, float h, const glm::vec3* dv,
                             ContactFilter& filter);

}  // namespace weft
