// Stage 3 of the tick (sim/world_stages.h): the dynamic step.
#include <cstring>
#include <utility>

#include "sim/contact_filter.h"
#include "sim/held_clearance.h"
#include "sim/integrator.h"
#include "sim/landing_filter.h"
#include "sim/self_collision.h"
#include "sim/sewn_filter.h"
#include "sim/world_stages.h"

namespace weft {

void integrate(const WorldModel& model, WorldState& state, Integrator& integrator, SelfCollision* self,
               WorldScratch& scratch, float h) {
  ClothState& c = state.cloth;
  // The contacts the solve keeps (sim/contact_filter.h), found against the colliders where stage 1 left
  // them; last step's filter says which contacts had to hold the cloth down.
  std::swap(c.contact_filter, scratch.last_contact_filter);
  c.contact_filter.clear();
  if (model.config.interaction.contacts_in_solve && integrator.filters_contacts())
    find_resting_contacts(state.colliders.data(), state.colliders.size(), model.config.interaction.thickness,
                          model.cloth.material.gravity, h, model.cloth.mass.data(), c.kinematic.data(),
                          c.position.data(), c.velocity.data(), scratch.last_contact_filter, c.contact_filter,
                          scratch.held_by_live ? scratch.held_by.data() : nullptr);
  if (!c.contact_filter.empty())  // x_prev still has last step's start
    leave_flat_landings(model.cloth, state.colliders.data(), state.colliders.size(), c.kinematic.data(),
                        c.position.data(), scratch.x_prev.data(), model.config.interaction.thickness,
                        c.contact_filter);
  std::memcpy(scratch.x_prev.data(), c.position.data(), scratch.x_prev.size() * sizeof(glm::vec3));
  if (self) self->begin_step(c);
  // The sewn seams too, each pair moved as one vertex by the solve (sim/sewn_filter.h); not yet with
  // self-collision: on table.json's tool session, whose seam already tears under it, it made the tear worse
  // (over 4 s edge strain 262 % against 208 %, 14 797 speed clamps against 829).
  c.sewn_filter.clear();
  if (!self && state.seams.size() && integrator.filters_contacts())
    find_sewn_pairs(state.seams, c.kinematic.data(), c.contact_filter, c.sewn_filter);
  integrator.step(model.cloth, c, h);
  // The held-patch shift was where a surface stopped the patch, not motion it keeps.
  forget_held_shift(state.held, state.held_shift, model.is_fixed.data(), h, c.kinematic.data(), c.velocity.data());
}

}  // namespace weft
