#pragma once
// One simulated scene: a cloth (immutable model + mutable state), its integrator, and the inputs that
// drive it (hands, trackers, pins, seams, colliders, rigid boxes). The runtime steps a World at a fixed
// tick; everything that changes the cloth goes through this API, so record/replay and determinism hold.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/cloth_model.h"
#include "sim/cloth_state.h"
#include "sim/collider.h"
#include "sim/device.h"
#include "sim/elastic_constraint.h"
#include "sim/grasp.h"
#include "sim/grasp_saturation.h"
#include "sim/integrator.h"
#include "sim/kinematic_safety.h"
#include "sim/pose.h"
#include "sim/pose_track.h"
#include "sim/rigid_body.h"
#include "sim/self_collision.h"
#include "sim/strain_limit.h"
#include "sim/tether.h"

namespace weft {

// Everything about how the cloth is held, touched and limited (issue 3).
struct InteractionConfig {
  ElasticParams elastic;          // grasps, trackers and elastic pins: time constant and speed cap
  ElasticParams seam{0.1f, 1.f};  // seams close slower (Volino 1997 Fig. 5f-g)
  GraspParams grasp;              // patch selection and falloff
  double extrapolation_horizon = 0.03;  // s a device pose is extrapolated past its newest sample (then eased back)
  float thickness = 0.004f;       // cloth thickness: contact distance to colliders, m
  StrainLimitParams strain;       // Provot strain limiting
  KinematicLimits safety;         // speed, acceleration, turn rate and stage bounds of every device target
  // Held patches stop where the cloth would pass this strain against pins and other hands
  // (sim/grasp_saturation.h); a little below the limiter's bound so the free cloth between them can comply.
  float saturation_strain = 0.09f;
  // Held patches are moved as a whole out of the world's colliders before the step (sim/held_clearance.h).
  bool clear_held_patches = true;
  // Tether lengths on flat convex pieces are straight rest distances, not edge paths (sim/tether.h).
  bool straight_tethers = true;
  // On release a vertex keeps at most release_speed_factor * |hand's smoothed velocity| + release_speed_slack
  // (m/s): stored stretch is not thrown with the cloth.
  float release_speed_factor = 1.25f;
  float release_speed_slack = 0.1f;
};

struct WorldConfig {
  double tick_hz = 240;  // fixed step h = 1 / tick_hz
  // The runtime's default integrator: Kang & Cho's linearised backward Euler solved by multigrid-
  // preconditioned CG (multigrid_solver.h) to an estimated 0.1 % error, warm-started from the last step. With
  // stiff cloth carried by two hands it matches CG solved to 1e-6 (`weft validate interaction`), where
  // Kang & Cho's few Jacobi iterations ("approx") and CG stopped at 1 % gain energy and stretch.
  IntegratorKind integrator = IntegratorKind::Multigrid;
  SolverOptions solver = runtime_solver_options();

  // Multigrid: 0.1 % relative error of dv in the energy norm (estimated two CG steps ahead), at most 20
  // iterations, one thread (sim.threads: 2 sweeps a large mesh in two regions, a 1.7 times faster
  // solve at 16 k vertices on two cores); CG to a 1 % relative residual (at most
  // 40 iterations); Gauss-Seidel 4 sweeps; for the approximate solver, k = 3 (k = 1 lets stiff hanging
  // cloth gain energy, `weft validate stability`); all with the free-flight translation correction, which
  // keeps a released stiff cloth falling at g however inexact the solve.
  static SolverOptions runtime_solver_options() {
    SolverOptions o;
    o.iterations = 3;
    o.translation_correction = true;
    o.cg_tolerance = 1e-2f;
    o.cg_max_iterations = 40;
    o.gs_sweeps = 4;
    o.mg_tolerance = 1e-3f;
    o.mg_max_iterations = 20;
    return o;
  }
  InteractionConfig interaction;
  // Cloth against itself (issue 8); off unless the scene asks, it costs a BVH refit and a pair search.
  SelfCollisionConfig self_collision{.enabled = false};
};

// Wall time of the parts of the last step, for the interaction benchmark.
struct StepTiming {
  double elastic_ms = 0;     // pose sampling, elastic targets, seams
  double integrator_ms = 0;  // the dynamic step
  double correction_ms = 0;  // strain limiting, collisions, rigid boxes, self-collision (the three below)
  double strain_ms = 0;      //   tethers and strain-limiting sweeps
  double collision_ms = 0;   //   colliders and rigid boxes
  double self_collision_ms = 0;  //   cloth against itself
  double total_ms = 0;
};

class World {
 public:
  World(ClothModel model, const WorldConfig& config);
  ~World();
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;

  // Advances one fixed tick of 1 / tick_hz seconds:
  //   1. colliders and rigid boxes move to the end of the tick;
  //   2. elastics (grasps, trackers, pins) set kinematic velocities (B) or rim corrections (A), seams (A);
  //   3. the integrator's dynamic step;
  //   4. corrections (Volino's (A), done right after the step so every published state satisfies them):
  //      strain limiting, collisions with colliders (then limiting and colliders again, up to
  //      strain.contact_passes times while there are contacts; if that does not converge, a last
  //      limiting pass), rigid boxes, then self-collision with the
  //      vertices touching a collider held immovable, its position corrections alternated with the
  //      colliders over the same contacts (up to 3 rounds; nothing ends inside a collider), then its
  //      velocity corrections.
  void step();
  // Back to the rest state at time 0: grasps released, pose tracks cleared, colliders and boxes at
  // their initial poses. Tracker attachments, pins and seams stay (they belong to the scene).
  void reset();

  // --- inputs, applied at tick boundaries
  // Queues a device pose (time on the simulation clock). Returns false, counts and ignores the sample
  // when it is invalid (flagged, NaN, Inf, non-unit quaternion, time going backwards).
  bool submit_pose(const PoseSample& sample);
  // Takes hold of the cloth near pose.position with the hand (see select_grasp); the hand's later poses
  // move the held vertices. A hand that already holds lets go first. Returns the number of vertices held.
  size_t grab(Hand hand, const Pose& pose, float radius);
  // Lets go: the vertices keep their velocity, bounded by the hand's smoothed velocity (throwing works,
  // flinging by stored stretch does not; InteractionConfig::release_speed_factor).
  void release(Hand hand);
  // Attaches vertices to a tracker (or any device) with their offsets in the frame `pose`; weight 1.
  size_t attach(Device device, const std::vector<uint32_t>& vertices, const Pose& pose);
  // Attaches the patch near pose.position (chosen and weighted like a grasp) to a tracker that clips on.
  size_t attach_near(Device device, const Pose& pose, float radius);
  void detach(Device device);
  // An elastic pin: the vertex is pulled to a fixed world target.
  void add_pin(uint32_t vertex, const glm::vec3& target);
  // A seam pulling vertices a and b together.
  void add_seam(uint32_t a, uint32_t b);
  size_t add_collider(const Collider& collider);
  size_t add_rigid_box(const RigidBox& box);
  // Turns self-collision on or off or changes its settings (builds the hierarchy: not for the tick path).
  void set_self_collision(const SelfCollisionConfig& config);

  // --- access
  const ClothModel& model() const { return model_; }
  const ClothState& state() const { return state_; }
  ClothState& mutable_state() { return state_; }
  const WorldConfig& config() const { return config_; }
  InteractionConfig& interaction() { return config_.interaction; }
  double time_step() const { return 1.0 / config_.tick_hz; }
  uint64_t invalid_pose_count() const { return invalid_poses_; }
  uint64_t rejected_pose_count(PoseRejection why) const { return rejected_[size_t(why)]; }

  bool is_grabbing(Hand hand) const { return !device_sets_[device_index(hand_device(hand))].vertex.empty(); }
  const ElasticSet& held_vertices(Device device) const { return device_sets_[device_index(device)]; }
  // Per vertex: bit 0 left hand, bit 1 right hand, bit 2 tracker or pin (the snapshot's `grasped`).
  void grasp_mask(uint8_t* out) const;
  // The device's pose as the sim uses it at time t (false if never known).
  bool device_pose(Device device, double t, Pose& out) const;

  std::vector<Collider>& colliders() { return colliders_; }
  const std::vector<Collider>& colliders() const { return colliders_; }
  std::vector<RigidBox>& rigid_boxes() { return boxes_; }
  const std::vector<RigidBox>& rigid_boxes() const { return boxes_; }
  const StepTiming& last_timing() const { return timing_; }
  const StrainLimitStats& strain_stats() const { return strain_stats_; }
  const StepStats& integrator_stats() const { return integrator_->stats(); }
  const CollisionStats& collision_stats() const { return collision_stats_; }
  // Null while self-collision is off.
  const SelfCollision* self_collision() const { return self_collision_.get(); }

  // FNV-1a hash of positions and velocities, bit-exact: equal states hash equal.
  uint64_t state_hash() const;

 private:
  void apply_elastics(float h);
  void apply_corrections(float h);
  void rebuild_tethers(int device);
  void rebuild_pin_tethers();
  // Tethers to tether_scratch_.sources (none: inactive), straightened on flat convex pieces when configured.
  void tethers_from_sources(Tethers& out);

  ClothModel model_;
  WorldConfig config_;
  ClothState state_;
  std::unique_ptr<Integrator> integrator_;
  uint64_t invalid_poses_ = 0;
  std::array<uint64_t, 5> rejected_{};  // per PoseRejection

  // interaction: per device, one pose track and one attached vertex set
  std::array<PoseTrack, kDeviceCount> tracks_;
  std::array<ElasticSet, kDeviceCount> device_sets_;
  std::array<Pose, kDeviceCount> attach_pose_;  // the frame at attach time, used while the track is empty
  std::array<Tethers, kDeviceCount> tethers_;   // long-range tethers to each device's fully held vertices
  std::array<SafeTarget, kDeviceCount> safe_;    // each device's target after the kinematic safety layer
  Tethers pin_tethers_;                          // long-range tethers to the pins (model and elastic pins)
  ElasticSet pins_;                              // fixed targets: identity frame, offset = world target
  std::vector<uint32_t> fixed_;                  // scene pins and elastic pins
  std::array<glm::vec3, kDeviceCount> held_shift_{};  // this tick's held-patch shifts (sim/held_clearance.h)
  std::vector<uint8_t> is_fixed_;                // 1 for the vertices in fixed_ (nvert)
  SeamSet seams_;
  std::vector<Collider> colliders_, initial_colliders_;
  std::vector<RigidBox> boxes_, initial_boxes_;

  // scratch, sized once
  VertexAdjacency adjacency_;
  FlatPieces flat_pieces_;  // which pieces have straight rest geodesics (tethers)
  GraspScratch grasp_scratch_;
  ElasticAccumulator elastic_acc_;
  std::vector<uint32_t> held_;          // vertices made kinematic by elastics last tick (capacity nvert)
  std::vector<glm::vec3> x_prev_;       // positions at the start of the step (nvert)
  StrainLimitScratch strain_scratch_;
  TetherScratch tether_scratch_;
  StepTiming timing_;
  StrainLimitStats strain_stats_;
  CollisionStats collision_stats_;
  std::unique_ptr<SelfCollision> self_collision_;  // built when enabled
  std::vector<uint8_t> collider_contact_;           // 1 where a vertex touched a collider this tick (nvert)
  VertexSet collider_moved_;                        // what the last collider pass moved
};

}  // namespace weft
