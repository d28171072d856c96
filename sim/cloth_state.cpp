#include "sim/cloth_state.h"

#include "sim/buckled_links.h"
#include "sim/cloth_model.h"

namespace weft {

ClothState make_rest_state(const ClothModel& model) {
  ClothState state;
  const size_t n = model.vertex_count();
  state.position = model.rest_position;
  state.velocity.assign(n, glm::vec3(0.f));
  state.kinematic = model.pinned;
  state.kinematic_velocity.assign(n, glm::vec3(0.f));
  state.contact_filter.resize(n);
  state.sewn_filter.resize(n);
  if (springs_buckle(model)) state.buckled.assign(model.edge_count, 0);
  if (model.material.weave.plasticity.enabled && model.weft_warp.active())
    state.hinge_rest_angle = model.weft_warp.hinge_rest_angle;
  if (model.material.weave.plasticity.in_plane && model.weft_warp.active())
    state.plastic_strain.assign(model.weft_warp.triangle_count(), {0.f, 0.f, 0.f});
  return state;
}

}  // namespace weft
