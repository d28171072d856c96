#pragma once
// The runtime solver (issue 14): Kang & Cho's linearised backward Euler step, the same system W dv = h f~
// as the approximate solver and CG (Eq. 14 with the stabilised Jacobian of Eq. 21-22, relative damping
// Eq. 26-28 and air drag), solved by conjugate gradients preconditioned with one algebraic-multigrid
// V-cycle (multigrid_preconditioner.h), started from the last step's dv (the inertial guess dv = h g,
// x + h v + h^2 g as Vertex Block Descent starts, on a first step or a replaced state). Every part is
// O(n) per iteration, and the V-cycle reduces the error at every scale at once, so a few iterations
// reach the tolerance on stiff cloth where block-Jacobi CG needs hundreds. Kinematic vertices keep their
// imposed dv (moved to the right-hand side).
#include <vector>

#include "sim/force_field.h"
#include "sim/integrator.h"
#include "sim/multigrid_preconditioner.h"

namespace weft {

class MultigridIntegrator final : public Integrator {
 public:
  MultigridIntegrator(const ClothModel& model, const SolverOptions& options);
  void step(const ClothModel& model, ClothState& state, float h) override;
  const char* name() const override { return "mg"; }
  bool filters_contacts() const override { return true; }
  const MultigridPreconditioner& preconditioner() const { return multigrid_; }

 private:
  static constexpr int kErrorDelay = 2;  // CG steps the error estimate looks ahead (step())
  SolverOptions options_;
  ForceBuffers forces_;
  MultigridPreconditioner multigrid_;
  SolveTeam team_;
  double total_mass_ = 0;  // kg, the stopping test's floor
  std::vector<glm::vec3> dv_nodes_, b_nodes_;  // dv and h f~ in vertex order (nvert)
  SlotVector dv_, b_, r_, z_, p_, q_;          // PCG vectors in the fine level's slot order
  uint64_t expected_step_ = UINT64_MAX;        // state.step_count the last dv belongs to (warm start)
};

}  // namespace weft
