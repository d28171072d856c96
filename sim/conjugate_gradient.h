#pragma once
// Baseline: the same linearised backward Euler system as the approximate solver (Kang & Cho Eq. 25
// with relative damping), solved to a tolerance by conjugate gradients with a 3x3 block-Jacobi
// preconditioner and the Baraff-Witkin constraint filter for kinematic vertices.
#include <vector>

#include "sim/force_field.h"
#include "sim/integrator.h"

namespace weft {

class ConjugateGradientIntegrator final : public Integrator {
 public:
  ConjugateGradientIntegrator(const ClothModel& model, const SolverOptions& options);
  void step(const ClothModel& model, ClothState& state, float h) override;
  const char* name() const override { return "cg"; }

 private:
  void multiply_w(const ClothModel& model, const ClothState& state, float h, const glm::vec3* in, glm::vec3* out) const;

  SolverOptions options_;
  ForceBuffers forces_;
  std::vector<Sym3> w_diag_;        // W_ii per vertex (nvert)
  std::vector<Sym3> precond_;       // W_ii^-1, zero for kinematic vertices (nvert)
  std::vector<glm::vec3> b_, x_, r_, d_, q_, s_;  // CG vectors (nvert)
};

}  // namespace weft
