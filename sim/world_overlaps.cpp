// World::open_loaded_overlaps: a mesh loaded with layers lying on each other gets the thickness's room
// before its first tick (sim/overlap_opening.h).

#include <stdexcept>

#include "sim/grasp.h"
#include "sim/integrator.h"
#include "sim/overlap_opening.h"
#include "sim/world.h"
#include "sim/world_state.h"

namespace weft {
namespace {

// The load's opening moves a vertex by at most this x thickness a sweep and this many sweeps: the layers of a
// fold part by half a thickness a sweep, so 4 sweeps open a free fold; the rest are for layers held by a pin.
constexpr float kOpeningStep = 0.25f;
constexpr size_t kOpeningSweeps = 16;

}  // namespace

void World::open_loaded_overlaps() {
  const float thickness = model_.config.self_collision.thickness;
  std::vector<glm::vec3> x = model_.cloth.rest_position;
  const OverlapOpening opened =
      open_overlaps(model_.cloth, x, self_collision_->overlaps(), thickness, kOpeningStep * thickness, kOpeningSweeps);
  if (opened.moved == 0) return;
  // The rest shape from the opened layers: built again as the scene built it, pins and crease lines kept.
  const ClothModel& old = model_.cloth;
  Mesh mesh{std::move(x), old.material_coord, old.triangle};
  std::vector<uint32_t> pins;
  for (uint32_t i = 0; i < old.vertex_count(); ++i)
    if (old.pinned[i]) pins.push_back(i);
  ClothModel opened_cloth;
  try {
    opened_cloth = build_cloth_model(mesh, old.material, pins, old.creases);
  } catch (const std::invalid_argument&) {
    return;  // an opening the model cannot take (two linked vertices met): the ticks draw the layers apart instead
  }
  model_.cloth = std::move(opened_cloth);
  model_.adjacency = build_adjacency(model_.cloth);
  integrator_ = model_.config.make_custom_integrator
                    ? model_.config.make_custom_integrator(model_.cloth, model_.config.solver)
                    : make_integrator(model_.config.integrator, model_.cloth, model_.config.solver);
  scratch_.resize(model_.cloth);
  // The start state again, at the new rest shape (what reset() returns to); the rest of the state (colliders,
  // attachments, seams) does not depend on it.
  const ClothState start = make_start_state(model_.cloth);
  state_.cloth.position = start.position;
  state_.cloth.velocity = start.velocity;
  state_.cloth.hinge_rest_angle = start.hinge_rest_angle;
  rest_shape_changed();
  self_collision_->rearm_overlaps(model_.cloth, state_.cloth.position.data());
}

}  // namespace weft
