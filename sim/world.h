#pragma once
// One simulated scene: its model (sim/world_model.h: cloth, configuration, pins, seams, the rigid world at
// time 0), its state (sim/world_state.h: everything a tick changes) and the scratch a step uses. The
// runtime steps a World at a fixed tick; the only ways to change its state are step() and the inputs
// below, applied between ticks, so record/replay and determinism hold. The model is fixed once the world
// runs, with one exception: an edit (a cut, a removal, a rest-shape scaling) replaces the cloth model and
// remaps the state, between ticks like the other inputs (edit), or at the end of the step its tick fixes
// (queue_edit).
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/cloth_edit.h"
#include "sim/cloth_model.h"
#include "sim/cloth_state.h"
#include "sim/collider.h"
#include "sim/device.h"
#include "sim/edit_build.h"
#include "sim/edit_worker.h"
#include "sim/integrator.h"
#include "sim/mesh_edit.h"
#include "sim/pose.h"
#include "sim/rest_ramp.h"
#include "sim/rigid_body.h"
#include "sim/self_collision.h"
#include "sim/step_report.h"
#include "sim/world_config.h"
#include "sim/world_model.h"
#include "sim/world_scratch.h"
#include "sim/world_state.h"

namespace weft {

// What World::sew did: the seam pairs it added, or why it added none (a static string; null when it sewed).
struct SewReport {
  size_t pairs = 0;
  const char* refused = nullptr;
  float clipped_m = 0;  // rest length cut off the longer run (World::sew's kMaxSeamGather), m
};

class World {
 public:
  World(ClothModel model, const WorldConfig& config);
  ~World();
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;

  // --- assembly, before the first step (the model is fixed once the world runs: these throw
  // std::logic_error after it)
  // An elastic pin: the vertex is pulled to a fixed world target.
  void add_pin(uint32_t vertex, const glm::vec3& target);
  // A seam pulling vertices a and b together.
  void add_seam(uint32_t a, uint32_t b);
  // A seam pulling vertex a toward the point (1 - w) x_b + w x_c of the edge b-c (sim/seam.h).
  void add_seam(uint32_t a, uint32_t b, uint32_t c, float w);
  size_t add_collider(const Collider& collider);
  size_t add_rigid_box(const RigidBox& box);
  // Turns self-collision on or off or changes its settings (builds the hierarchy).
  void set_self_collision(const SelfCollisionConfig& config);
  // Triangle pairs lying flat on each other at load (engine/mesh_check.h's overlaps, which no crossing test
  // sees), handed to self-collision to draw apart (SelfCollision::add_overlapping_pairs): drawn a thickness
  // apart now, the rest shape taken from there (sim/overlap_opening.h), and those that could not be drawn
  // apart left to the ticks. Returns the pairs taken: 0 while self-collision is off.
  size_t add_overlapping_pairs(const std::vector<std::array<uint32_t, 2>>& pairs);

  // Advances one fixed tick of 1 / tick_hz seconds: the stages of sim/world_stages.h, in its order; then
  // the queued edits due at the new step_count land (queue_edit).
  void step();
  // Back to the rest state at time 0: grasps released, pose tracks cleared, colliders and boxes at
  // their initial poses. Tracker attachments, pins and the scene's seams stay (they belong to the scene),
  // open again; seams sewn during the session go. Edits stay: the cloth comes back at rest as edited (a
  // replay starts from a freshly loaded world).
  void reset();

  // --- inputs, applied between ticks
  // Queues a device pose (time on the simulation clock). Returns false, counts and ignores the sample
  // when it is invalid (flagged, NaN, Inf, non-unit quaternion, time going backwards).
  bool submit_pose(const PoseSample& sample);
  // Takes hold of the cloth near pose.position with the hand (see select_grasp); the hand's later poses
  // move the held vertices. A hand that already holds lets go first. Returns the number of vertices held.
  size_t grab(Hand hand, const Pose& pose, float radius);
  // Lets go: the patch slides out of the grip over InteractionConfig::release_time, its frame going on
  // with the hand's smoothed velocity while the stretch it held relaxes (sim/grasp_release.h);
  // then the vertices are freed with at most that frame's speed (throwing works, flinging by stored
  // stretch does not; InteractionConfig::release_speed_factor).
  void release(Hand hand);
  // Attaches vertices to a tracker (or any device) with their offsets in the frame `pose`; weight 1.
  size_t attach(Device device, const std::vector<uint32_t>& vertices, const Pose& pose);
  // Attaches the patch near pose.position (chosen and weighted like a grasp) to a tracker that clips on.
  size_t attach_near(Device device, const Pose& pose, float radius);
  void detach(Device device);
  // An impulse: adds dv to the velocities of vertices [first, first + count) (clamped to the cloth), as a
  // throw or a push from outside the scene would (harnesses: a drop speed, a pressing hand).
  void add_velocity(const glm::vec3& dv, uint32_t first = 0, uint32_t count = UINT32_MAX);
  // Places a collider that no device drives (a scripted prop) at `pose`; the next step moves it on with
  // its velocity.
  void move_collider(size_t index, const Pose& pose);
  // Cuts, removes or rescales the cloth (sim/cloth_edit.h): the one input that changes the model while the
  // world runs. Rebuilds what depends on the topology or rest shape and remaps every vertex-indexed thing
  // in the model and the state (the vertex and triangle counts change: a consumer sized at load must follow);
  // crumbs a cut or removal leaves go with it. A refused edit changes nothing and is counted.
  // It rebuilds on the calling thread (16 k vertices: 15-20 ms), after landing the queued edits.
  EditReport edit(const ClothEdit& edit);
  // The runtime's edit (engine/sim_event.cpp): a cut or removal is built on the edit worker
  // (sim/edit_worker.h) from the positions now, while the world steps on the old cloth, and lands after the
  // step that brings step_count to now + kEditLandingSteps (waiting there for a late build), so the result
  // depends on the ticks alone, not on timing. Landing carries the state at that tick over, as edit() does.
  // Returns report.queued (or refused at once: a NaN); landed_edit() has the report once it lands. A
  // scaling (cheap, no new topology) lands the queue and applies at once.
  EditReport queue_edit(const ClothEdit& edit);
  static constexpr uint64_t kEditLandingSteps = 4;  // 16.7 ms at 240 Hz
  // Lands every queued edit now (waiting for their builds): reset and edit() do, a moved world does.
  void land_queued_edits();
  size_t queued_edits() const { return editor_ ? editor_->size() : 0; }
  // Tests: the worker sleeps this long before each build (a late build must not change the result).
  void delay_edit_worker(double ms);
  // The last edit that landed (queued or not) and how many have changed the topology.
  const EditReport& landed_edit() const { return landed_; }
  uint64_t topology_generation() const { return topology_generation_; }
  // Seams the border run of the cloth nearest a_from..a_to to the one nearest b_from..b_to (Volino 1997
  // Fig. 5f-g): each run is the border path between the border vertices nearest its two points; the runs are
  // paired by arc length (runs of different lengths included) and pulled together by elastics, then sewn.
  SewReport sew(const glm::vec3& a_from, const glm::vec3& a_to, const glm::vec3& b_from, const glm::vec3& b_to);

  // --- access
  const WorldModel& world_model() const { return model_; }
  const WorldState& world_state() const { return state_; }
  const ClothModel& model() const { return model_.cloth; }
  const ClothState& state() const { return state_.cloth; }
  const WorldConfig& config() const { return model_.config; }
  double time_step() const { return 1.0 / model_.config.tick_hz; }
  uint64_t invalid_pose_count() const { return state_.invalid_poses; }
  uint64_t refused_sew_count() const { return state_.refused_sews; }
  // Sews whose longer run was clipped to kMaxSeamGather times the shorter one's rest length.
  uint64_t clipped_sew_count() const { return state_.clipped_sews; }
  const SeamSet& seams() const { return state_.seams; }
  uint64_t rejected_pose_count(PoseRejection why) const { return state_.rejected[size_t(why)]; }
  uint64_t edits_applied() const { return edits_applied_; }
  uint64_t edits_refused() const { return edits_refused_; }
  // Of those, the queued edits that have landed, and of these the applied ones.
  uint64_t queued_edits_landed() const { return queued_landed_; }
  uint64_t queued_edits_applied() const { return queued_applied_; }

  // Holding (a patch still sliding out after a release is not).
  bool is_grabbing(Hand hand) const {
    const int d = device_index(hand_device(hand));
    return !state_.held[d].vertex.empty() && !state_.release[d].active;
  }
  const ElasticSet& held_vertices(Device device) const { return state_.held[device_index(device)]; }
  // Per vertex: bit 0 left hand, bit 1 right hand, bit 2 tracker or pin (the snapshot's `grasped`).
  void grasp_mask(uint8_t* out) const;
  // The device's pose as the sim uses it at time t (false if never known).
  bool device_pose(Device device, double t, Pose& out) const;

  const std::vector<Collider>& colliders() const { return state_.colliders; }
  // Some collider is a body part or a hand's (the step measures StepReport::body_penetration_m).
  bool has_body() const { return has_body_; }
  const std::vector<RigidBox>& rigid_boxes() const { return state_.boxes; }
  const StepTiming& last_timing() const { return stats_.timing; }
  const StrainLimitStats& strain_stats() const { return stats_.strain; }
  const StepReport& step_report() const { return stats_; }
  const StepStats& integrator_stats() const { return integrator_->stats(); }
  // The integrator stage 3 runs (the GPU step's, gpu/gpu_integrator.h, reads its stage times through it).
  const Integrator& integrator() const { return *integrator_; }
  const CollisionStats& collision_stats() const { return stats_.collision; }
  const FailsafeStats& failsafe_stats() const { return stats_.failsafe; }
  // Null while self-collision is off.
  const SelfCollision* self_collision() const { return self_collision_.get(); }

  // FNV-1a hash of positions and velocities, bit-exact: equal states hash equal.
  uint64_t state_hash() const;

 private:
  void assembling(const char* what) const;
  void rebuild_tethers(int device);
  // Ends device d's release: its vertices freed, their speed capped (see release).
  void free_patch(int d);
  void rebuild_pin_tethers();
  // The self-collision told which features the seams join (after a sew, an edit, a reset).
  void seams_changed();
  // Fills scratch_.held_by (which device holds which vertex) for the colliders that follow a device.
  void mark_held_vertices();
  // Tethers to scratch_.tether.sources (none: inactive), straightened on flat convex pieces when configured.
  void tethers_from_sources(Tethers& out);
  // An edit's build made the world's: every vertex-indexed thing in the model and the state carried over
  // to the new vertices (sim/world_edit.cpp), the derived tables and solver structures swapped in.
  void land_edit(EditBuild& build, EditReport::Landing& ms);
  // The queued edits due at this step_count (all: every one), landed in order.
  void land_due_edits(bool all);
  EditBase edit_base() const;
  // After the rest shape changed (a scaling reached its target): what derives from it rebuilt (it allocates).
  void rest_shape_changed();
  // add_overlapping_pairs: the layers drawn apart and the cloth rebuilt at rest there (sim/world_overlaps.cpp).
  void open_loaded_overlaps();
  // How many ticks an expand or shrink takes to reach its rest shape (kRestRampSeconds).
  int rest_ramp_ticks() const;

  WorldModel model_;
  WorldState state_;
  WorldScratch scratch_;
  std::unique_ptr<Integrator> integrator_;
  std::unique_ptr<SelfCollision> self_collision_;  // built when enabled
  StepReport stats_;  // what the last step measured
  RestRamp rest_ramp_;  // an expand or shrink under way (sim/rest_ramp.h)
  bool running_ = false;  // a step was taken: the model is fixed
  bool energy_cached_ = false;  // stats_.failsafe.energy is the state's energy now (saves the next tick a pass)
  bool has_followers_ = false;  // some collider follows a device (held_by is kept)
  bool has_body_ = false;       // some collider is a body part (the step measures body_penetration_m)
  uint64_t edits_applied_ = 0;  // edit() calls that changed the cloth
  uint64_t edits_refused_ = 0;  // edit() calls refused (EditReport::refused says why)
  uint64_t queued_landed_ = 0, queued_applied_ = 0;  // queued edits landed, applied of them
  uint64_t topology_generation_ = 0;  // edits that changed the topology (the worker's positions say which)
  EditReport landed_;                 // the last edit landed
  std::vector<uint32_t> queued_leaf_order_;  // the hierarchy's leaf order, for a worker with no model of its own
  std::unique_ptr<EditWorker> editor_;  // made on the first queued edit
};

}  // namespace weft
