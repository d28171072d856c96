#pragma once
// How a world is set up: tick, solver, and how the cloth is held, touched and limited. Part of the world's
// model (sim/world_model.h): fixed while the world runs.
#include <functional>
#include <memory>

#include "sim/elastic_constraint.h"
#include "sim/grasp.h"
#include "sim/integrator.h"
#include "sim/kinematic_safety.h"
#include "sim/self_collision.h"
#include "sim/strain_limit.h"

namespace weft {

// Everything about how the cloth is held, touched and limited (issue 3).
struct InteractionConfig {
  ElasticParams elastic;          // grasps, trackers and elastic pins: time constant and speed cap
  ElasticParams seam{0.1f, 1.f};  // seams close slower (Volino 1997 Fig. 5f-g)
  float sew_gap = 1e-3f;          // a seam pair closer than this is sewn for good (sim/seam.h), m
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
  // Vertices resting on colliders keep the contact inside the implicit solve (sim/contact_filter.h); off:
  // only the collider pass after the step sees them (for comparisons).
  bool contacts_in_solve = true;
  // ... and those resting on a rigid box too, the box's velocity solved with them and the exchange inelastic
  // for the box (sim/box_coupling.h). Off: the box meets the cloth only in the pass after the step
  // (resolve_cloth_box), held up by 0.09 g vertices meeting it at metres per second: cube_drop.json's crate
  // rocked for the whole demo and its rim's vertices rang into 7 fail-safe speed clamps. Not in a
  // step that runs the passes after the solve itself (the GPU's): it keeps what it did.
  bool boxes_in_solve = true;
  // Tether lengths on flat convex pieces are straight rest distances, not edge paths (sim/tether.h).
  bool straight_tethers = true;
  // On release a vertex keeps at most release_speed_factor * |hand's smoothed velocity| + release_speed_slack
  // (m/s): stored stretch is not thrown with the cloth.
  float release_speed_factor = 1.25f;
  float release_speed_slack = 0.1f;
  // A released patch slides out of the grip over this time before it is freed (sim/grasp_release.h):
  // the stretch it held relaxes instead of snapping back. 0: freed at once. Scene key interaction.release_time.
  float release_time = 0.075f;
  // ... only when the patch holds more stretch than this along its tethers (grasp_release.h's
  // stored_stretch): below it the snap-back is under 0.01 x wave speed (0.6 m/s), and a release frees
  // the patch at once, its momentum kept.
  float release_stretch = 0.01f;
};

// The last line of defence (sim/failsafe.h): what it lets through.
struct FailsafeConfig {
  bool enabled = true;
  float drive_margin = 1.5f;       // a vertex may move this many times faster than the fastest driver
  float speed_slack = 1.0f;        // m/s over either speed bound
  float energy_tolerance = 1e-3f;  // rise of the mechanical energy accepted on a passive tick, relative to
                                   // the kinetic and elastic energy at its start
  float energy_floor = 1e-5f;      // J: a rise always accepted (round-off on a cloth at rest)
};

// Where the step runs (scene key sim.device, `--device`): cpu (the default until the GPU step covers the
// shipped scenes), gpu (the best Vulkan device, lavapipe included) or auto (a real GPU, never lavapipe, else
// the CPU). sim/ only carries the choice; gpu/ makes it (gpu/step_device.h).
enum class StepDevice { Cpu, Gpu, Auto };

// An integrator made outside sim/ (the GPU step, gpu/gpu_integrator.h) for this cloth, used instead of
// make_integrator when set: by World's constructor and again after World::edit.
using IntegratorFactory = std::function<std::unique_ptr<Integrator>(const ClothModel&, const SolverOptions&)>;

struct WorldConfig {
  double tick_hz = 240;  // fixed step h = 1 / tick_hz
  // The runtime's default integrator: Kang & Cho's linearised backward Euler solved by multigrid-
  // preconditioned CG (multigrid_solver.h) to an estimated 0.1 % error, warm-started from the last step. With
  // stiff cloth carried by two hands it matches CG solved to 1e-6 (`weft validate interaction`), where
  // Kang & Cho's few Jacobi iterations ("approx") and CG stopped at 1 % gain energy and stretch.
  IntegratorKind integrator = IntegratorKind::Multigrid;
  SolverOptions solver = runtime_solver_options();
  StepDevice device = StepDevice::Cpu;  // as the scene asks; the runtime resolves it and sets make_custom_integrator
  IntegratorFactory make_custom_integrator;  // empty: make_integrator(integrator, ...)

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
  FailsafeConfig failsafe;
  // Cloth against itself (issue 8); off unless the scene asks, it costs a BVH refit and a pair search.
  SelfCollisionConfig self_collision{.enabled = false};
};

}  // namespace weft
