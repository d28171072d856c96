#pragma once
// The two-hand interaction experiment of issue 14 (`weft validate interaction`): a cotton cloth (the
// table scene's material) lies on a table; two hands grasp its front corners, lift it 0.4 m while moving
// together, pull it apart (to 97 % of the rest distance between the grasps), shake it at 2 Hz (2 cm, from
// rest), hold it still, and let go. One run per solver; the measures below are compared with the CG reference.
#include <vector>

#include "sim/world.h"

namespace weft::lab {

struct InteractionSetup {
  uint32_t quads = 127;  // grid quads per side: (quads + 1)^2 vertices, 16 384 at 127
  IntegratorKind solver = IntegratorKind::Multigrid;
  SolverOptions options = WorldConfig::runtime_solver_options();
  bool damping = true;   // false: link damping and air drag set to 0 (the energy check)
  bool table = true;     // false: no table under the cloth (it hangs free from the hands)
  float apart = 0.97f;   // the hands' separation after the pull, times the rest distance between the grasps
  double tick_hz = 240;
  IntegratorFactory make_integrator{};  // set: the step's integrator instead of solver's (the GPU step, --device)
};

// Phases, in seconds from the grasp.
struct InteractionTimeline {
  double lift_end = 0.8;      // hands rise 0.4 m (eased) while moving toward each other
  double pull_end = 1.3;      // hands move apart
  double shake_end = 2.3;     // 2 Hz vertical shake, 2 cm amplitude (shake_offset)
  double shake_hz = 2.0;
  // m, half the 4 cm peak-to-peak travel. Twice that (0.5 m/s at the hands) lifts the front edge 1.5 cm
  // above the hands on the down stroke with any solver: the hanging cloth carries the hands' motion at its
  // wave speed, about 2 m/s (docs/validation.md), so the edge 8 cm from a hand is 40 ms behind it.
  double shake_amplitude = 0.02;
  // The hands start and end the shake at rest; the held vertices follow them elastically (time constant
  // 20 ms, interaction.elastic) and are still, doing no more work, well before still_from.
  double still_from = 2.45;
  double release = 2.8;       // hands still (no work done on the cloth) until the release
  double end = 3.8;
};

struct InteractionResult {
  size_t vertices = 0;
  double peak_elastic = 0, peak_kinetic = 0;  // J, whole run
  double max_height_above_hand = -1e9;        // highest free vertex minus the higher hand while holding, m
  double max_speed_held = 0;                  // fastest vertex while holding, m/s
  double settle_time = -1;                    // s after release until KE < 1 % of its peak (-1: never)
  double strain_p99 = 0, strain_max = 0;      // over the structural edges, worst step while holding
  double hold_energy_rise = 0;                // max E(t) - E(still_from) while the hands are still, J
  uint64_t grasp_saturated = 0;               // patch-ticks the grasps yielded (StepReport::grasp), whole run
  uint64_t grasp_saturated_still = 0;         // the same while the hands are still
  double release_energy_rise = 0;             // max E(t) - E(release) after the release, J
  double energy_input = 0;                    // E(release) - E(0): what the hands put in, J
  double mean_step_ms = 0;                    // World::step wall time
  double mean_solver_iterations = 0;
  double max_cg_residual = 0;                 // CG only: worst relative residual reached
  bool finite = true;
};

// The hands' height above their lifted height at time t during the shake (0 outside it), m:
// A (1 - cos(2 pi f (t - pull_end))), so that the hands enter and leave the shake at rest, as hands do.
// (A sin, entering at full speed, asked the hands for 0.5 m/s within one tick: the safety layer's
// 150 m/s^2 let it through, and the jerk stretched the edge beside the grasp to 8-10 %.)
double shake_offset(double t, const InteractionTimeline& timeline);

InteractionResult run_interaction(const InteractionSetup& setup, const InteractionTimeline& timeline = {});

}  // namespace weft::lab
