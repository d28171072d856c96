// Stage 2 of the tick (sim/world_stages.h): Volino's elastics. Grasps, trackers and pins demand a
// velocity toward their target with one time constant and are made kinematic (B); seams correct
// velocities (A) and drive their vertices (B) until they close, then keep them sewn.
#include <algorithm>

#include "sim/grasp_release.h"
#include "sim/grasp_saturation.h"
#include "sim/held_clearance.h"
#include "sim/world_stages.h"

namespace weft {

void apply_elastics(const WorldModel& model, WorldState& state, WorldScratch& scratch, float h, StepReport& stats) {
  ClothState& c = state.cloth;
  // Vertices held last tick go back to what the model says (pinned or free).
  for (uint32_t i : state.elastic_held) c.kinematic[i] = model.cloth.pinned[i];
  state.elastic_held.clear();
  ElasticAccumulator& acc = scratch.elastic;
  acc.clear();

  const double t = c.time;
  const glm::vec3* x = c.position.data();
  const InteractionConfig& ic = model.config.interaction;
  for (int d = 0; d < kDeviceCount; ++d) {
    // Every tracked device's target passes the safety layer each tick, held or not, so that a grab
    // starts from a follower already on the hand.
    Pose from = state.attach_pose[d], to = state.attach_pose[d], raw;
    if (state.tracks[d].sample(t + h, ic.extrapolation_horizon, raw)) {
      state.tracks[d].sample(t, ic.extrapolation_horizon, from);
      if (ic.safety.enabled) {
        if (!state.safe[d].valid) advance_safe_target(state.safe[d], from, h, ic.safety);
        from = state.safe[d].pose;
        to = advance_safe_target(state.safe[d], raw, h, ic.safety, ic.elastic.tau);
      } else {
        to = raw;
      }
    }
    if (state.held[d].vertex.empty()) continue;
    GraspRelease& r = state.release[d];
    if (r.active) {  // sliding out of the grip: the frame goes on from where the hand let go
      // At the hand's velocity, without gravity: a kinematic frame falling at g drove the patch, with no
      // limit on its force, onto the cloth folded under it on the floor (`weft stress` two_hand, laid
      // down 5 cm up): the crushed fold burst out at 8-21 m/s when freed (33 speed and all 6 energy
      // clamps of the matrix). Once freed, the solve lets the patch fall against what is under it.
      from = r.pose;
      // Rising, it slows at g like a thrown patch, to the top of its arc and no farther: going up at the
      // hand's speed for the whole slide, it lifted the cloth it held (a silk disc pinned at its rim, let go
      // at 0.3 m/s upward: kinetic energy 1.38 x what the release and the fall account for).
      const glm::vec3 g = model.cloth.material.gravity;
      const float rise = glm::dot(r.velocity, -g) / glm::dot(g, g);  // s until the rise stops
      if (rise > 0.f) r.velocity += std::min(h, rise) * g;
      r.pose.position += h * r.velocity;
      to = r.pose;
    }
    accumulate_elastic_set(state.held[d], from, to, x, h, ic.elastic, acc);
  }
  if (!model.pins.vertex.empty()) accumulate_elastic_set(model.pins, Pose{}, Pose{}, x, h, ic.elastic, acc);
  for (const ElasticSet& set : state.held)
    if (!set.vertex.empty()) share_velocity_change(set, c.velocity.data(), c.kinematic.data(), acc);

  apply_elastic_demands(acc, c.velocity.data(), c.kinematic.data(), c.kinematic_velocity.data(),
                        ic.elastic.max_acceleration * h);
  stats.grasp = {};
  bool tethered = false;
  for (const Tethers& t : state.tethers) tethered = tethered || t.active;
  if (ic.strain.enabled && tethered) {
    const bool at_limit = free_edge_strain(model.cloth, x, c.kinematic.data()) >= ic.saturation_strain;
    stats.grasp.saturated =
        saturate_held_motion(state.held, state.tethers, model.fixed, model.is_fixed.data(), ic.saturation_strain,
                             ic.elastic.max_speed, h, 4, x, c.kinematic.data(), c.kinematic_velocity.data(), at_limit);
  }
  for (const GraspRelease& r : state.release) stats.grasp.sliding += r.active && r.ticks_left > 0;
  relax_released_motion(state.held, state.tethers, state.release, model.fixed, model.is_fixed.data(),
                        ic.elastic.max_speed, h, 4, x, c.kinematic.data(), c.kinematic_velocity.data());
  for (GraspRelease& r : state.release)
    if (r.active && r.ticks_left > 0) --r.ticks_left;
  if (ic.clear_held_patches && !state.colliders.empty())
    clear_held_of_colliders(state.held, state.colliders, model.is_fixed.data(), ic.thickness, h, x,
                            c.kinematic.data(), c.kinematic_velocity.data(), state.held_shift);
  else
    state.held_shift.fill(glm::vec3(0.f));
  for (uint32_t i : acc.touched)
    if (c.kinematic[i] && !model.cloth.pinned[i]) state.elastic_held.push_back(i);
  state.seam_driven.clear();
  if (state.seams.size())  // the vertices the open seams drive are freed after the solve (free_seam_driven)
    apply_seams(state.seams, model.cloth.inv_mass.data(), c.kinematic.data(), c.kinematic_velocity.data(),
                c.position.data(), c.velocity.data(), h, model.cloth.material.gravity, ic.seam, ic.sew_gap,
                state.seam_driven, scratch.piece_mass.size() == c.position.size() ? scratch.piece_mass.data() : nullptr);
}

void free_seam_driven(const WorldModel& model, WorldState& state, WorldScratch& scratch) {
  for (uint32_t i : state.seam_driven) {
    state.cloth.kinematic[i] = model.cloth.pinned[i];
    scratch.seam_slip[i] = 1;
  }
}

void release_seam_slip(WorldState& state, WorldScratch& scratch) {
  for (uint32_t i : state.seam_driven) scratch.seam_slip[i] = 0;
  state.seam_driven.clear();
}

}  // namespace weft
