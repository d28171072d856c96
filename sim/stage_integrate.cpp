// Stage 3 of the tick (sim/world_stages.h): the dynamic step.
#include <algorithm>
#include <cstring>
#include <utility>

#include "sim/box_coupling.h"
#include "sim/contact_filter.h"
#include "sim/held_clearance.h"
#include "sim/integrator.h"
#include "sim/landing_filter.h"
#include "sim/self_collision.h"
#include "sim/sewn_filter.h"
#include "sim/world_stages.h"

namespace weft {
namespace {

// The boxes' Newton steps (sim/box_coupling.h) stop once the largest moves the box's farthest point by less
// than this, m/s, or after this many solves.
constexpr float kBoxSettled = 1e-4f;
constexpr int kBoxSolves = 4;

// The cloth's step with the boxes' velocities as unknowns: solved, each box's velocity corrected, and solved
// again from the same start with the boxes where they now go, until the corrections vanish.
void solve_with_boxes(const WorldModel& model, WorldState& state, Integrator& integrator, WorldScratch& scratch,
                      float h) {
  ClothState& c = state.cloth;
  const size_t bytes = c.position.size() * sizeof(glm::vec3);
  std::memcpy(scratch.box_solve_x.data(), c.position.data(), bytes);
  std::memcpy(scratch.box_solve_v.data(), c.velocity.data(), bytes);
  const double time = c.time;
  const uint64_t steps = c.step_count;
  scratch.box_moved.assign(state.boxes.size(), BoxTwist{});
  scratch.box_step.assign(state.boxes.size(), BoxTwist{});
  for (int solve = 1;; ++solve) {
    integrator.step(model.cloth, c, h);
    float change = 0.f;
    for (uint32_t b = 0; b < state.boxes.size(); ++b) {
      BoxTwist& du = scratch.box_step[b];
      box_velocity_change(c.contact_filter, model.cloth.mass.data(), c.position.data(), state.boxes[b], b,
                          scratch.box_moved[b], du);
      change = std::max(change, glm::length(du.linear) +
                                    glm::length(du.angular) * glm::length(state.boxes[b].half_extents));
    }
    const bool last = change < kBoxSettled || solve == kBoxSolves;
    for (uint32_t b = 0; b < state.boxes.size(); ++b) {
      BoxTwist& du = scratch.box_step[b];
      if (last) {
        inelastic_exchange(state.boxes[b], scratch.box_moved[b], model.cloth.material.gravity, h, du);
        follow_box_in_cloth(c.contact_filter, state.boxes[b], b, du, h, c.position.data(), c.velocity.data());
      } else {
        follow_box_in_filter(c.contact_filter, scratch.box_solve_x.data(), state.boxes[b], b, du);
        scratch.box_moved[b].linear += du.linear;
        scratch.box_moved[b].angular += du.angular;
      }
      move_box(state.boxes[b], du, h);
    }
    if (last) return;
    // A contact that pulled the cloth onto its box lets go before the next solve (the box is leaving it).
    const ContactFilter& f = c.contact_filter;
    c.contact_filter.keep_if([&](size_t k) { return f.body_of(k) == ContactFilter::kNone || f.impulse[k] >= 0.f; });
    std::memcpy(c.position.data(), scratch.box_solve_x.data(), bytes);
    std::memcpy(c.velocity.data(), scratch.box_solve_v.data(), bytes);
    c.time = time;
    c.step_count = steps;
  }
}

}  // namespace

void integrate(const WorldModel& model, WorldState& state, Integrator& integrator, SelfCollision* self,
               WorldScratch& scratch, float h) {
  ClothState& c = state.cloth;
  // The contacts the solve keeps (sim/contact_filter.h), found against the colliders where stage 1 left
  // them; last step's filter says which contacts had to hold the cloth down.
  std::swap(c.contact_filter, scratch.last_contact_filter);
  c.contact_filter.clear();
  // The rigid boxes after the colliders, each as a collider where stage 1 advanced it (sim/box_coupling.h).
  const Collider* solids = state.colliders.data();
  size_t nsolid = state.colliders.size();
  // Not in a step that runs the passes after the solve itself (the GPU's), nor without a contact filter.
  const bool boxes = model.config.interaction.boxes_in_solve && !state.boxes.empty() &&
                     integrator.filters_contacts() && !integrator.runs(PostSolveStage::ColliderPasses);
  if (boxes) {
    scratch.solids.assign(state.colliders.begin(), state.colliders.end());
    for (const RigidBox& b : state.boxes) scratch.solids.push_back(b.as_collider());
    solids = scratch.solids.data();
    nsolid = scratch.solids.size();
  }
  // (The GPU step finds them on the device: gpu/gpu_resting_contacts.h.)
  if (model.config.interaction.contacts_in_solve && integrator.filters_contacts() &&
      !integrator.runs(PostSolveStage::RestingContacts))
    find_resting_contacts(solids, nsolid, model.config.interaction.thickness, model.cloth.material.gravity, h,
                          model.cloth.mass.data(), c.kinematic.data(), c.position.data(), c.velocity.data(),
                          scratch.last_contact_filter, c.contact_filter,
                          scratch.held_by_live ? scratch.held_by.data() : nullptr, state.colliders.size());
  if (!c.contact_filter.empty())  // x_prev still has last step's start
    leave_flat_landings(model.cloth, solids, nsolid, c.kinematic.data(), c.position.data(), scratch.x_prev.data(),
                        model.config.interaction.thickness, c.contact_filter);
  std::memcpy(scratch.x_prev.data(), c.position.data(), scratch.x_prev.size() * sizeof(glm::vec3));
  if (self) self->begin_step(c);
  // The sewn seams too, each pair moved as one vertex by the solve (sim/sewn_filter.h); not yet with
  // self-collision: on table.json's tool session, whose seam already tears under it, it made the tear worse
  // (over 4 s edge strain 262 % against 208 %, 14 797 speed clamps against 829).
  c.sewn_filter.clear();
  if (!self && state.seams.size() && integrator.filters_contacts())
    find_sewn_pairs(state.seams, c.kinematic.data(), c.contact_filter, c.sewn_filter);
  if (boxes) {
    solve_with_boxes(model, state, integrator, scratch, h);
  } else {
    integrator.step(model.cloth, c, h);
  }
  // The held-patch shift was where a surface stopped the patch, not motion it keeps.
  forget_held_shift(state.held, state.held_shift, model.is_fixed.data(), h, c.kinematic.data(), c.velocity.data());
}

}  // namespace weft
