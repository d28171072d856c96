#pragma once
// What the last step measured of itself: wall time per stage and the counts of its correction passes.
// Outputs of a step, read by benchmarks, the runtime's --json and replay --trace; never inputs to one.
#include "sim/collider.h"
#include "sim/failsafe.h"
#include "sim/strain_limit.h"

namespace weft {

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

// How the grasps yielded this tick (issue 34: a grasp pulled farther than the cloth can give yields, counted).
struct GraspStats {
  uint32_t saturated = 0;  // held patches stopped at the saturation strain (sim/grasp_saturation.h)
  uint32_t sliding = 0;    // released patches sliding out of the grip (sim/grasp_release.h)
};

// The seams after the step (sim/seam.h).
struct SeamStats {
  float gap_max = 0.f;  // largest gap of a seam pair, m (0: no seams)
  uint32_t sewn = 0;    // pairs sewn for good
  uint32_t pairs = 0;   // pairs in all
};

struct StepReport {
  StepTiming timing;
  StrainLimitStats strain;       // every limiting pass of the step, summed
  CollisionStats collision;      // the colliders' and rigid boxes' contacts
  FailsafeStats failsafe;        // what the last line of defence clamped
  GraspStats grasp;              // grasps that yielded
  SeamStats seams;               // how far the seams are from closed
};

}  // namespace weft
