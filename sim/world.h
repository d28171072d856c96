#pragma once
// One simulated scene: a cloth (immutable model + mutable state), its integrator, and the inputs that
// drive it (hands, trackers, pins). The runtime steps a World at a fixed tick; everything that
// changes the cloth goes through this API, so record/replay and determinism hold.
#include <cstdint>
#include <memory>

#include "sim/cloth_model.h"
#include "sim/cloth_state.h"
#include "sim/integrator.h"
#include "sim/pose.h"

namespace weft {

struct WorldConfig {
  double tick_hz = 240;  // fixed step h = 1 / tick_hz
  IntegratorKind integrator = IntegratorKind::ApproximateImplicit;
  SolverOptions solver = runtime_solver_options();

  // The runtime's default: Kang & Cho k = 1 plus the translation correction, which keeps stiff cloth
  // falling at g (approximate_implicit.cpp).
  static SolverOptions runtime_solver_options() {
    SolverOptions o;
    o.translation_correction = true;
    return o;
  }
};

enum class Hand : uint8_t { Left = 0, Right = 1 };

class World {
 public:
  World(ClothModel model, const WorldConfig& config);
  ~World();
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;

  // Advances one fixed tick of 1 / tick_hz seconds.
  void step();
  // Back to the rest state at time 0, grasps released.
  void reset();

  // Inputs, applied at tick boundaries.
  // Returns false, counts and ignores the sample when it is invalid (NaN, Inf, non-unit quaternion,
  // time going backwards).
  bool submit_pose(const PoseSample& sample);
  // Takes hold of the cloth near pose.position with the hand; returns the number of vertices held.
  size_t grab(Hand hand, const Pose& pose, float radius);
  void release(Hand hand);

  const ClothModel& model() const { return model_; }
  const ClothState& state() const { return state_; }
  ClothState& mutable_state() { return state_; }
  const WorldConfig& config() const { return config_; }
  double time_step() const { return 1.0 / config_.tick_hz; }
  uint64_t invalid_pose_count() const { return invalid_poses_; }

  // FNV-1a hash of positions and velocities, bit-exact: equal states hash equal.
  uint64_t state_hash() const;

 private:
  ClothModel model_;
  WorldConfig config_;
  ClothState state_;
  std::unique_ptr<Integrator> integrator_;
  uint64_t invalid_poses_ = 0;
};

}  // namespace weft
