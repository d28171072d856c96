#pragma once
// The semi-implicit integrators of Volino & Thalmann 2005 sec. 3.1.1, on Weft's force Jacobian and
// solved by block-preconditioned CG (block_system.h):
//  - generalised backward Euler (Eq. 8-9): Q(t+h) - Q(t) = Q'(t + alpha h) h, linearised:
//      (M - alpha h D - (alpha h)^2 K) dv = h (f + alpha h K v),  dx = h (v + alpha dv);
//    alpha = 1 is backward Euler, 0.5 the implicit midpoint;
//  - BDF-2 with alpha (Eq. 10-11): beta = (2 alpha - 1) / (2 alpha + 1), dt' = 2 h / (2 alpha + 1):
//      (M - alpha dt' D - (alpha dt')^2 K) dv = beta M dv_prev + dt' (f + alpha dt' K v) + alpha dt' beta K dx_prev,
//      dx = beta dx_prev + dt' (v + alpha dv).
//    Its first step (and any step after the state was reset or changed elsewhere) is a generalised Euler step.
// The weft/warp viscosity enters the blocks as D / (alpha h) (weft_warp_forces.h); in BDF-2's K dx_prev
// term it is carried along with K (an approximation, exact without weave viscosity).
#include <vector>

#include "sim/block_system.h"
#include "sim/integrator.h"

namespace weft {

class GeneralizedEulerIntegrator final : public Integrator {
 public:
  GeneralizedEulerIntegrator(const ClothModel& model, float alpha, const SolverOptions& options);
  void step(const ClothModel& model, ClothState& state, float h) override;
  const char* name() const override { return "be"; }

  // The step itself, also BDF-2's first step: returns dv and dx per vertex.
  void euler_step(const ClothModel& model, ClothState& state, float h, glm::vec3* dx, glm::vec3* dv);

 private:
  float alpha_;
  SolverOptions options_;
  ForceBuffers forces_;
  BlockSystem system_;
  std::vector<glm::vec3> b_, dx_, dv_;  // right-hand side and increments (nvert)
};

class Bdf2Integrator final : public Integrator {
 public:
  Bdf2Integrator(const ClothModel& model, float alpha, const SolverOptions& options);
  void step(const ClothModel& model, ClothState& state, float h) override;
  const char* name() const override { return "bdf2"; }

 private:
  float alpha_;
  SolverOptions options_;
  ForceBuffers forces_;
  BlockSystem system_;
  GeneralizedEulerIntegrator start_;
  std::vector<glm::vec3> b_, kdx_, dv_;
  std::vector<glm::vec3> dx_prev_, dv_prev_;  // the previous step's increments (nvert)
  bool have_history_ = false;
  uint64_t history_step_ = 0;  // state.step_count the history belongs to
  double history_time_ = 0;
  float history_h_ = 0;
};

}  // namespace weft
