// Stage 3 of the tick (sim/world_stages.h): the dynamic step.
#include <cstring>

#include "sim/held_clearance.h"
#include "sim/integrator.h"
#include "sim/self_collision.h"
#include "sim/world_stages.h"

namespace weft {

void integrate(const WorldModel& model, WorldState& state, Integrator& integrator, SelfCollision* self,
               WorldScratch& scratch, float h) {
  ClothState& c = state.cloth;
  std::memcpy(scratch.x_prev.data(), c.position.data(), scratch.x_prev.size() * sizeof(glm::vec3));
  if (self) self->begin_step(c);
  integrator.step(model.cloth, c, h);
  // The held-patch shift was where a surface stopped the patch, not motion it keeps.
  forget_held_shift(state.held, state.held_shift, model.is_fixed.data(), h, c.kinematic.data(), c.velocity.data());
}

}  // namespace weft
