#include "sim/contact_filter.h"

#include <algorithm>
#include <cmath>

#include "sim/cloth_model.h"
#include "sim/collider.h"
#include "sim/force_field.h"
#include "sim/implicit_step.h"

namespace weft {
namespace {

// A landed vertex sits at the thickness (the collider pass puts it there); this much above it still
// rests (a vertex sliding over a sphere drifts out by (v h)^2 / 2r a step).
constexpr float kReach = 1.02f;
// Normal speed away from the collider above which a vertex is taken to be leaving, m/s (after a
// constrained step a resting vertex's normal speed is the collider's to rounding).
constexpr float kLeaving = 1e-4f;
// Below this slip a contact is held by static friction, regularised: mu_s N / kStick of damping, so a
// load within the static cone creeps at most this fast, m/s.
constexpr float kStick = 1e-3f;

}  // namespace

void ContactFilter::resize(size_t vertex_count) {
  vertex.reserve(vertex_count);
  body.reserve(vertex_count);
  for (auto* u : {&dv_normal, &friction, &impulse, &distance}) u->reserve(vertex_count);
  for (auto* u : {&normal, &slip, &work}) u->reserve(vertex_count);
  lumped_mass.reserve(vertex_count);
  entry_of_vertex.assign(vertex_count, kNone);
  clear();
}

void ContactFilter::clear() {
  for (uint32_t i : vertex) entry_of_vertex[i] = kNone;
  vertex.clear();
  normal.clear();
  dv_normal.clear();
  friction.clear();
  slip.clear();
  impulse.clear();
  distance.clear();
  body.clear();
}

void find_resting_contacts(const Collider* colliders, size_t ncollider, float thickness, const glm::vec3& gravity,
                           float h, const float* mass, const uint8_t* kinematic, const glm::vec3* x,
                           const glm::vec3* v, const ContactFilter& last, ContactFilter& out,
                           const uint8_t* held_by, size_t first_box) {
  out.clear();
  const size_t n = out.entry_of_vertex.size();
  const float reach = kReach * thickness;
  // The colliders that follow a device (hands, tracked body parts) after the others, and never in place of
  // them: a vertex between a palm and the table, kept moving with the palm into the table, drew the whole
  // built-in table cloth along (705 speed clamps as the scripted hands came down on its corners).
  for (int followers = 0; followers < 2; ++followers)
  for (size_t c = 0; c < ncollider; ++c) {
    const Collider& col = colliders[c];
    if (bool(col.follows) != bool(followers)) continue;
    glm::vec3 lo(-INFINITY), hi(INFINITY);
    if (collider_bounds(col, lo, hi)) {
      lo -= reach;
      hi += reach;
    }
    for (size_t i = 0; i < n; ++i) {
      const glm::vec3 p = x[i];
      if (p.x < lo.x || p.y < lo.y || p.z < lo.z || p.x > hi.x || p.y > hi.y || p.z > hi.z) continue;
      if (!(mass[i] > 0.f) || !std::isfinite(mass[i]) || kinematic[i] || held_by_own_device(col, held_by, i)) continue;
      // Nor the vertices a device holds (its patch's rim, moved by the hand's velocity correction), against
      // any collider: held against the table's side while the hand drew its patch along it, a rim vertex took
      // an impulse of 593-4 606 m/s per unit mass, its friction then pinned it and the edges to the moving core
      // threw their neighbours at 2.3-4.4 m/s (table.json run live: 1-63 speed clamps in 3 runs of 24). The
      // pass after the step keeps them out of the collider, as it keeps the patch's core.
      if (held_by && held_by[i]) continue;
      glm::vec3 nrm;
      const float d = collider_distance(col, p, nrm);
      // A rigid box moves under the cloth (stage 1 advanced it): a vertex that touched it at the start of the
      // tick still rests on it though the box rose or turned away by a fraction of a millimetre. Left out, the
      // cloth's tension pulled such a vertex 2-6 mm into the rocking crate in one solve (1.5-2.5 m/s) and the
      // pass after the step pushed it out again: cube_drop.json's vertices at the crate's rim rang.
      if (!(d < reach) && c >= first_box) {
        Collider start = col;
        start.pose = col.previous_pose;
        glm::vec3 n0;
        if (!(collider_distance(start, p, n0) < reach)) continue;
      } else if (!(d < reach)) {
        continue;
      }
      if (col.follows && d < 0.f) continue;  // inside a device's collider: left to leave (sim/collider.h)
      const uint32_t e = last.entry_of_vertex[i];
      // A contact that had to hold the vertex down last step lets it go (the cloth is lifting off).
      if (e != ContactFilter::kNone && last.impulse[e] < 0.f) continue;
      // A vertex that just landed is found here too; sim/landing_filter.h then keeps it only where the cloth
      // comes down onto it.
      const glm::vec3 rel = v[i] - collider_point_velocity(col, p);
      const float vn = glm::dot(rel, nrm);
      if (vn > kLeaving) continue;
      // N h / m: last step's impulse, or on first contact gravity's share.
      const float pressed = e != ContactFilter::kNone ? last.impulse[e] : h * std::max(0.f, -glm::dot(gravity, nrm));
      const glm::vec3 slip = rel - vn * nrm;
      const float speed = glm::length(slip);
      const float mu = speed <= kStick ? col.mu_static : col.mu_kinetic;
      const float friction = mu * mass[i] * pressed / std::max(speed, kStick);  // h c = mu N h / max(|v_t|, v_stick)
      uint32_t k = out.entry_of_vertex[i];
      if (k == ContactFilter::kNone) {
        k = uint32_t(out.vertex.size());
        out.entry_of_vertex[i] = k;
        out.vertex.push_back(uint32_t(i));
        out.normal.push_back(nrm);
        out.dv_normal.push_back(-vn);
        out.friction.push_back(friction);
        out.slip.push_back(slip);
        out.impulse.push_back(0.f);
        out.distance.push_back(d);
        out.body.push_back(c >= first_box ? uint32_t(c - first_box) : ContactFilter::kNone);
      } else if (d < out.distance[k] && !col.follows) {  // two colliders: the nearer holds it (the pass after the step, both)
        out.body[k] = c >= first_box ? uint32_t(c - first_box) : ContactFilter::kNone;
        out.normal[k] = nrm;
        out.dv_normal[k] = -vn;
        out.friction[k] = friction;
        out.slip[k] = slip;
        out.distance[k] = d;
      }
    }
  }
}

void record_contact_impulses(const ClothModel& model, const ForceBuffers& forces, float h, const glm::vec3* dv,
                             ContactFilter& filter) {
  if (filter.empty()) return;
  filter.work.resize(filter.size());  // within the capacity reserved for every vertex
  filter.lumped_mass.resize(filter.size());
  for (size_t k = 0; k < filter.size(); ++k) {
    const uint32_t i = filter.vertex[k];
    const Sym3 W = implicit_diagonal(model, forces, h, i);
    filter.work[k] = W * dv[i] - h * forces.force[i];
    const glm::vec3 n = filter.normal[k];
    const float wn = glm::dot(n, W * n);
    filter.lumped_mass[k] = {wn, 0.5f * (W.xx + W.yy + W.zz - wn)};  // across: the tangent plane's mean
  }
  const uint32_t* entry = filter.entry_of_vertex.data();
  for (size_t l = 0; l < model.link_count_total(); ++l) {
    const uint32_t i = model.link[l][0], j = model.link[l][1];
    const uint32_t ei = entry[i], ej = entry[j];
    if (ei == ContactFilter::kNone && ej == ContactFilter::kNone) continue;
    const Sym3 B = implicit_coupling(model, forces, h, l);  // W_ij = -B
    if (ei != ContactFilter::kNone) filter.work[ei] -= B * dv[j];
    if (ej != ContactFilter::kNone) filter.work[ej] -= B * dv[i];
  }
  // The contact's impulse on the vertex: the constraint's along the normal, the friction's across it
  // (-h c (v_t + dv_t)). Only these, not what an inexact solve left in the tangent rows, reach the
  // translation correction (Gauss-Seidel's sweeps hardly move the uniform mode: the correction has to see
  // the friction to slow a cloth on a slope).
  for (size_t k = 0; k < filter.size(); ++k) {
    const glm::vec3 n = filter.normal[k], d = dv[filter.vertex[k]];
    const float jn = glm::dot(filter.work[k], n);
    filter.impulse[k] = jn * model.inv_mass[filter.vertex[k]];
    filter.work[k] = jn * n - filter.friction[k] * (filter.slip[k] + d - glm::dot(d, n) * n);
  }
}

}  // namespace weft
