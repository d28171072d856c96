// Stage 1 of the tick (sim/world_stages.h): the rigid world moves to the end of the tick.
#include "sim/world_stages.h"

namespace weft {

void move_solids(const WorldModel& model, WorldState& state, float h) {
  const double t = state.cloth.time;
  for (Collider& c : state.colliders) {
    // A device's collider (a hand's palm) is pulled toward the device's pose like an elastic.
    Pose now, next;
    if (c.follows && device_pose(model, state, *c.follows, t, now) &&
        device_pose(model, state, *c.follows, t + 1.0 / model.config.tick_hz, next))
      c.linear_velocity = elastic_velocity(c.pose.position, now.position, next.position, h, model.config.interaction.elastic);
    advance_collider(c, h);
  }
  for (RigidBox& b : state.boxes) advance_rigid_box(b, model.cloth.material.gravity, h);
}

}  // namespace weft
