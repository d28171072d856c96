#include "sim/contact_passes.h"

#include <cstring>

#include "sim/contact_filter.h"

namespace weft {

ContactPasses::ContactPasses(const WorldModel& model, WorldState& state, WorldScratch& scratch, float h)
    : model_(model), state_(state), scratch_(scratch), h_(h), thickness_(model.config.interaction.thickness),
      incremental_(state.boxes.empty()),
      skip_(model.config.interaction.clear_held_patches ? state.cloth.kinematic.data() : nullptr),
      held_by_(scratch.held_by_live ? scratch.held_by.data() : nullptr) {}

void ContactPasses::collide_all(CollisionStats& stats) {
  ClothState& c = state_.cloth;
  const size_t n = model_.cloth.vertex_count();
  std::memset(scratch_.collider_contact.data(), 0, n);
  // The vertices the solve kept on a collider touch it, at the thickness or a hair above it.
  for (uint32_t i : c.contact_filter.vertex) scratch_.collider_contact[i] = 1;
  c.contact_axes.clear();  // the next step's translation correction reads this step's contacts
  scratch_.collider_moved.clear();
  resolve_collisions(state_.colliders.data(), state_.colliders.size(), thickness_, h_, model_.cloth.inv_mass.data(),
                     scratch_.x_prev.data(), c.position.data(), c.velocity.data(), n, stats,
                     {.in_contact = scratch_.collider_contact.data(), .axes = &c.contact_axes,
                      .moved = &scratch_.collider_moved, .skip = skip_, .kinematic = c.kinematic.data(), .held_by = held_by_, .slip = scratch_.seam_slip.data()});
}

void ContactPasses::collide_again(CollisionStats& stats) {
  ClothState& c = state_.cloth;
  scratch_.collider_moved.clear();
  resolve_collisions(state_.colliders.data(), state_.colliders.size(), thickness_, h_, model_.cloth.inv_mass.data(),
                     scratch_.x_prev.data(), c.position.data(), c.velocity.data(), model_.cloth.vertex_count(), stats,
                     {.in_contact = scratch_.collider_contact.data(), .axes = &c.contact_axes,
                      .only = incremental_ ? &scratch_.strain.moved : nullptr, .moved = &scratch_.collider_moved,
                      .skip = skip_, .kinematic = c.kinematic.data(), .held_by = held_by_, .slip = scratch_.seam_slip.data()});
}

void ContactPasses::collide_untracked(CollisionStats& stats) {
  ClothState& c = state_.cloth;
  resolve_collisions(state_.colliders.data(), state_.colliders.size(), thickness_, h_, model_.cloth.inv_mass.data(),
                     scratch_.x_prev.data(), c.position.data(), c.velocity.data(), model_.cloth.vertex_count(), stats,
                     {.in_contact = scratch_.collider_contact.data(), .axes = &c.contact_axes, .skip = skip_, .kinematic = c.kinematic.data(), .held_by = held_by_, .slip = scratch_.seam_slip.data()});
}

void ContactPasses::collide_driven(CollisionStats& stats) {
  ClothState& c = state_.cloth;
  stats.contacts = 0;
  scratch_.collider_moved.clear();
  for (const Collider& col : state_.colliders) {
    if (!col.follows || ((scratch_.holding >> int(*col.follows)) & 1u)) continue;
    CollisionStats one;
    resolve_collisions(&col, 1, thickness_, h_, model_.cloth.inv_mass.data(), scratch_.x_prev.data(), c.position.data(),
                       c.velocity.data(), model_.cloth.vertex_count(), one,
                       {.in_contact = scratch_.collider_contact.data(), .axes = &c.contact_axes,
                         .moved = &scratch_.collider_moved, .kinematic = c.kinematic.data(), .held_by = held_by_,
                         .slip = scratch_.seam_slip.data(), .world = state_.colliders.data(), .nworld = state_.colliders.size()});
    stats.contacts += one.contacts;
  }
}

void ContactPasses::limit_behind_driven(StrainLimitStats& stats) {
  VertexSet& pushed = scratch_.collider_moved;
  if (pushed.empty()) return;
  ClothState& c = state_.cloth;
  const ClothModel& m = model_.cloth;
  const size_t n = m.vertex_count();
  uint8_t* mask = scratch_.pushed_or_kinematic.data();
  std::memcpy(mask, c.kinematic.data(), n);
  for (uint32_t i : pushed.list) mask[i] = 1;
  const StrainLimitParams& params = model_.config.interaction.strain;
  limit_strain_near(m, mask, params, h_, pushed, scratch_.strain, c.position.data(), c.velocity.data(), stats);
  // What that pulled into a hand goes out again (through a thin forearm: back where it entered).
  CollisionStats again;
  collide_driven(again);
  // Pins, grasps and trackers outrank a hand: where an edge at one of them is still over the limit (the hand
  // pressing cloth against its pin: cube_drop.json's palms on its pinned border, 5.4 = 540 % left), the
  // limiter moves the pushed vertices too, with the 1 % of slack: the hand sinks into the cloth. Only
  // there: between two pushed vertices (cloth wrapped round a 1 cm forearm) it pulled the cloth through it.
  const float over = 1.f + params.max_strain + kHandYield;
  bool pin_edge_over = false;
  for (size_t e = 0; e < m.edge_count && !pin_edge_over; ++e) {
    const auto [a, b] = m.link[e];
    if (!c.kinematic[a] && !c.kinematic[b]) continue;
    const glm::vec3 d = c.position[b] - c.position[a];
    pin_edge_over = glm::dot(d, d) > over * over * m.rest_length[e] * m.rest_length[e];
  }
  if (!pin_edge_over) return;
  StrainLimitParams yielding = params;
  yielding.max_strain += kHandYield;
  StrainLimitStats last;
  limit_strain(m, c.kinematic.data(), yielding, h_, scratch_.strain, c.position.data(), c.velocity.data(), last);
  stats.corrected += last.corrected;
}

uint32_t ContactPasses::collide_boxes() {
  ClothState& c = state_.cloth;
  uint32_t contacts = 0;
  for (RigidBox& b : state_.boxes)
    contacts += resolve_cloth_box(b, thickness_, model_.cloth.inv_mass.data(), scratch_.x_prev.data(),
                                  c.position.data(), c.velocity.data(), model_.cloth.vertex_count(),
                                  c.kinematic.data());
  return contacts;
}

void ContactPasses::limit_all(StrainLimitStats& stats) {
  ClothState& c = state_.cloth;
  limit_strain(model_.cloth, c.kinematic.data(), model_.config.interaction.strain, h_, scratch_.strain,
               c.position.data(), c.velocity.data(), stats);
}

void ContactPasses::limit_again(StrainLimitStats& stats) {
  if (!incremental_) return limit_all(stats);
  ClothState& c = state_.cloth;
  limit_strain_near(model_.cloth, c.kinematic.data(), model_.config.interaction.strain, h_, scratch_.collider_moved,
                    scratch_.strain, c.position.data(), c.velocity.data(), stats);
}

bool ContactPasses::settled(const StrainLimitStats& limited) const {
  return limited.corrected == 0 || limited.largest_move < model_.config.interaction.strain.contact_settle * thickness_;
}

}  // namespace weft
