// Stage 1 of the tick (sim/world_stages.h): the rigid world moves to the end of the tick.
#include "sim/driven_collider.h"
#include "sim/world_stages.h"

namespace weft {
namespace {

// The world pose of a device's collider: its grip offset in the device's frame.
Pose attached_pose(const Pose& device, const std::optional<Pose>& grip) {
  if (!grip) return device;
  return Pose{device.transform_point(grip->position), glm::normalize(device.orientation * grip->orientation)};
}

}  // namespace

void move_solids(const WorldModel& model, WorldState& state, float h) {
  const double t = state.cloth.time;
  const ElasticParams& elastic = model.config.interaction.elastic;
  for (Collider& c : state.colliders) {
    if (c.follows && !c.grip) {
      // Following only its device's position (a sphere on a tracker, `weft stress` hand_sweep's capsule): pulled
      // by the elastic law as it always was, through gaps and jumps too (standing aside, hand_sweep's capsule
      // let go of the cloth it pushed in every NaN burst: rest error 0.34 m against 0.05).
      Pose now, next;
      if (device_pose(model, state, *c.follows, t, now) &&
          device_pose(model, state, *c.follows, t + 1.0 / model.config.tick_hz, next))
        c.linear_velocity = elastic_velocity(c.pose.position, now.position, next.position, h, elastic);
    }
    if (!c.follows || !c.grip) {
      advance_collider(c, h);
      continue;
    }
    // A collider fixed in its device's frame (a hand's palm and forearm, a body part) is pulled toward the
    // device's pose like an elastic, or stands aside while the device is unseen, jumps or holds
    // (sim/driven_collider.h).
    // Seen lately: a device whose newest sample is older than twice the extrapolation horizon is gone (the
    // window's mouse hand after a drag, a controller that lost tracking), though its track holds its last pose.
    const int d = device_index(*c.follows);
    const PoseTrack& track = state.tracks[d];
    const double horizon = model.config.interaction.extrapolation_horizon;
    DeviceMotion device;
    device.known = track.size() > 0 && track.newest_time() >= t - 2.0 * horizon &&
                   device_pose(model, state, *c.follows, t, device.now) &&
                   device_pose(model, state, *c.follows, t + 1.0 / model.config.tick_hz, device.next);
    device.now = attached_pose(device.now, c.grip);
    device.next = attached_pose(device.next, c.grip);
    device.jumping = model.config.interaction.safety.enabled && state.safe[d].valid && state.safe[d].catching_up;
    device.holds = !state.held[d].vertex.empty() || state.release[d].active;
    const std::vector<glm::vec3>& x = state.cloth.position;
    drive_collider(c, device, x.data(), x.size(), model.config.interaction.thickness, h, elastic);
  }
  for (RigidBox& b : state.boxes) advance_rigid_box(b, model.cloth.material.gravity, h);
}

}  // namespace weft
