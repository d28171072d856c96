// Stage 4 of the tick (sim/world_stages.h): tethers, the strain limiter, the colliders and the rigid boxes.
#include "sim/contact_passes.h"
#include "sim/wall_time.h"
#include "sim/world_stages.h"

namespace weft {

void resolve_contacts(const WorldModel& model, WorldState& state, WorldScratch& scratch, float h, StepReport& stats) {
  const auto t_start = WallClock::now();
  const size_t n = model.cloth.vertex_count();
  ClothState& c = state.cloth;
  const StrainLimitParams& strain = model.config.interaction.strain;
  if (strain.enabled) {
    for (const Tethers& t : state.tethers)
      apply_tethers(t, strain.tether_slack, model.cloth.inv_mass.data(), c.kinematic.data(), c.position.data(),
                    c.velocity.data(), n);
    apply_tethers(model.pin_tethers, strain.tether_slack, model.cloth.inv_mass.data(), c.kinematic.data(),
                  c.position.data(), c.velocity.data(), n);
  }
  ContactPasses passes(model, state, scratch, h);
  passes.limit_all(stats.strain);
  const auto t_strain = WallClock::now();

  passes.collide_all(stats.collision);
  // A collider pushing vertices out undoes part of the limiting (a hand pressing into the cloth stretches
  // the edges around the contact): alternate the two a few more times while there are contacts.
  // Rigid boxes take part in the same alternation: a box resting on a held or pinned cloth pushes its
  // vertices down after the limiting, which left the edges under its corners stretched by 50-200 %.
  uint32_t box_contacts = 0;
  for (RigidBox& b : state.boxes) {
    box_contacts += resolve_cloth_box(b, model.config.interaction.thickness, model.cloth.inv_mass.data(),
                                      scratch.x_prev.data(), c.position.data(), c.velocity.data(), n);
    for (const Collider& plane : state.colliders)
      if (plane.shape == ColliderShape::Plane) resolve_box_plane(b, plane);
  }
  bool converged = stats.collision.contacts + box_contacts == 0;
  const bool incremental = state.boxes.empty();
  for (int pass = 0; pass < strain.contact_passes && !converged; ++pass) {
    StrainLimitStats again;
    passes.limit_again(again);
    stats.strain.corrected += again.corrected;
    converged = passes.settled(again);
    if (converged) break;
    CollisionStats pass_stats;
    passes.collide_again(incremental ? pass_stats : stats.collision);
    box_contacts = passes.collide_boxes();
  }
  if (!converged) {
    // The passes ran out with contacts still re-stretching edges (a 200 g box on a cloth held by its
    // edges: every pass, the box, 1 500 times heavier than a vertex, takes its penetration out of the
    // cloth; cube_drop.json's demo ended at 10.27 %). The limiter has the last word: what it moves now is
    // the alternation's residual (under 0.1 mm there), well inside the contact thickness.
    StrainLimitStats last;
    passes.limit_all(last);
    stats.strain.corrected += last.corrected;
  }
  stats.collision.contacts += box_contacts;
  const auto t_collide = WallClock::now();
  stats.timing.strain_ms = ms_between(t_start, t_strain);
  stats.timing.collision_ms = ms_between(t_strain, t_collide);
}

void resolve_driven_contacts(const WorldModel& model, WorldState& state, WorldScratch& scratch, float h) {
  if (!scratch.held_by_live) return;  // no collider follows a device
  ContactPasses passes(model, state, scratch, h);
  CollisionStats stats;
  passes.collide_driven(stats);
  StrainLimitStats limited;
  passes.limit_behind_driven(limited);
}

}  // namespace weft
