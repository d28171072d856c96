#pragma once
// Time integrators behind one interface; all share evaluate_forces. Each owns its scratch buffers,
// sized from the model when it is made, so step() never allocates.
#include <cstdint>
#include <memory>
#include <string>

#include "sim/cloth_model.h"
#include "sim/cloth_state.h"

namespace weft {

enum class IntegratorKind {
  ApproximateImplicit,  // Kang & Cho: linearised backward Euler, k block-Jacobi iterations (Eq. 17-20, 27-28)
  ConjugateGradient,    // full linearised backward Euler solved by block-preconditioned CG (Baraff-Witkin)
  GaussSeidel,          // the same system, a few block Gauss-Seidel sweeps over a vertex colouring
  Multigrid,            // the same system, CG preconditioned by an aggregation multigrid V-cycle (issue 14)
  SymplecticEuler,      // explicit reference (Kang & Cho Eq. 3)
  RungeKutta4,          // explicit reference, as Volino 1997 section 2.2
  // Volino & Thalmann 2005 sec. 3 (generalized_implicit.h, runge_kutta45.h):
  GeneralizedEuler,     // semi-implicit Euler with SolverOptions::alpha (1 backward Euler, 0.5 midpoint), Eq. 9
  Bdf2,                 // semi-implicit BDF-2 with SolverOptions::alpha, Eq. 11
  RungeKutta45,         // Cash-Karp 5(4) with error control and adaptive sub-steps to SolverOptions::rk_tolerance
};

struct SolverOptions {
  int iterations = 1;            // block-Jacobi iterations k of the approximate solver; must be odd
  bool allow_even_iterations = false;  // even k tends to be unstable (Kang & Cho section 4.2)
  // Implicit solvers: after the solve, for a cloth in free flight, a Galerkin correction of the uniform
  // translation (translation_correction.h). Off reproduces Kang & Cho (and plain CG) exactly; on keeps a
  // released stiff cloth falling at g however inexact the solve.
  bool translation_correction = false;
  float cg_tolerance = 1e-4f;    // relative residual at which CG stops
  int cg_max_iterations = 200;
  float alpha = 1.f;             // GeneralizedEuler and Bdf2 implicitness (Volino 2005 Eq. 8-11), in [0.5, 1]
  float rk_tolerance = 1e-5f;    // RungeKutta45: error per sub-step on positions (m) and velocities (m/s)
  int gs_sweeps = 4;               // Gauss-Seidel sweeps per step (alternately forward and backward over the colours)
  bool gs_inertial_guess = true;   // start from dv = h g (x + h v + h^2 g); false: from dv = 0
  bool gs_warm_start = false;      // start from last step's whole dv (diverges on stiff cloth; for experiments)
  float gs_chebyshev_rho = 0.f;    // Chebyshev acceleration's spectral-radius estimate in (0, 1); 0 = off
  float mg_tolerance = 1e-3f;      // Multigrid: relative error of dv (energy norm, estimated) at which its CG stops
  int mg_max_iterations = 20;
  int mg_smoothing_sweeps = 1;     // Gauss-Seidel sweeps before and after each coarse correction
  bool mg_warm_start = true;       // start from the last step's dv, not the inertial guess dv = h g: fewer
                                   // iterations to the same (estimated) error
  int mg_threads = 1;              // 2: the fine level of a mesh of at least mg_split_vertices vertices is cut
                                   // into two regions, Gauss-Seidel within each and Jacobi between them
                                   // (ghost slots), and a helper thread sweeps one (sim/solve_team.h): 1.7
                                   // times faster at 16 k and 64 k on the 2-core test VM. Other iterates
                                   // than 1's, the same whether the helper runs or the caller sweeps both,
                                   // so a scene's results do not depend on the machine
  size_t mg_split_vertices = 8192; // below this the passes are too short for two threads on the test VM (2.4 k
                                   // vertices: 1.37-1.43 against 1.30-1.36 ms of integrator a tick: the
                                   // blocks and vectors crossing between the cores cost what the second saves)
  bool mg_helper = true;           // false: both parts on the caller's thread (as on a 1-core machine)
};

struct StepStats {
  int solver_iterations = 0;  // Jacobi or CG iterations, or Gauss-Seidel sweeps, of the last step
  float residual = 0;         // CG relative residual of the last step
};

// The stages after the solve that an integrator may run itself (the GPU step runs them in its own submit);
// World::step skips the CPU pass of each one it claims. RestingContacts, before the solve: stage 3's search
// for the contacts the solve keeps (find_resting_contacts and leave_flat_landings, sim/stage_integrate.cpp),
// which the GPU step runs at the head of its submit. ReleaseThrow (sim/release_grip.h) is claimed tick by
// tick, after step(): the GPU step runs it between its end of step and stage 4 when the tick is one submit.
enum class PostSolveStage : uint8_t {
  StrainLimit, ColliderPasses, SelfContacts, Plasticity, Failsafe, RestingContacts, ReleaseThrow
};

struct WorldModel;
struct WorldState;
struct WorldScratch;
struct StepReport;

class Integrator {
 public:
  virtual ~Integrator() = default;
  // Advances state by h seconds. Kinematic vertices end the step with their imposed velocity.
  virtual void step(const ClothModel& model, ClothState& state, float h) = 0;
  virtual const char* name() const = 0;
  // Whether step() keeps ClothState::contact_filter's contacts (sim/contact_filter.h); the others leave
  // every contact to the collider pass after the step. Only mg: the contacts' normal impulses (the
  // friction's N, the lift-off test) are read from the solve, and friction acts through the cloth's
  // uniform mode, which mg's coarsest level solves and Gauss-Seidel's sweeps, Kang & Cho's Jacobi
  // iterations and CG stopped at 1 % do not (a cloth on a 35 degree slope, mu_s 0.5, stood still under CG
  // and approx and fell freely under gs).
  virtual bool filters_contacts() const { return false; }
  virtual bool runs(PostSolveStage) const { return false; }
  // The world whose post-solve stages runs() claims, handed over by stage 3 before each step (what those
  // stages read beyond the cloth: colliders, tethers, the interaction settings; where their stats go).
  virtual void attach_world(const WorldModel&, WorldState&, WorldScratch&, StepReport&) {}
  // Runs the stages runs() claims, at stage 4's place in World::step (after the release recoil, the
  // fail-safe's post-solve energy and the held-patch shift, as their CPU passes): the GPU step's second submit.
  virtual void run_post_solve(float /*h*/) {}
  const StepStats& stats() const { return stats_; }

 protected:
  StepStats stats_;
};

// Throws std::invalid_argument for an even iteration count (unless allowed) or a non-positive one, fewer than one
// Gauss-Seidel sweep or a Chebyshev estimate outside [0, 1).
std::unique_ptr<Integrator> make_integrator(IntegratorKind kind, const ClothModel& model,
                                            const SolverOptions& options = {});

// "mg", "gs", "approx", "cg", "euler", "rk4", "be", "bdf2", "rk45"; throws std::invalid_argument on an unknown name.
IntegratorKind parse_integrator_kind(const std::string& name);
const char* integrator_kind_name(IntegratorKind kind);

}  // namespace weft
