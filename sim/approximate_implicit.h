#pragma once
// Kang & Cho's approximate implicit solver: one linearised backward Euler step whose linear system
// W dv = h f~ (Eq. 14) is approximated by k block-Jacobi iterations with 3x3 blocks (Eq. 17-20),
// including implicit relative damping (Eq. 27-28) and implicit air drag on the diagonal. O(n) per step.
#include <vector>

#include "sim/force_field.h"
#include "sim/integrator.h"

namespace weft {

class ApproximateImplicitIntegrator final : public Integrator {
 public:
  ApproximateImplicitIntegrator(const ClothModel& model, int iterations, bool translation_correction);
  void step(const ClothModel& model, ClothState& state, float h) override;
  const char* name() const override { return "approx"; }

 private:
  int iterations_;
  bool translation_correction_;
  ForceBuffers forces_;
  std::vector<Sym3> w_inverse_;     // W_i'^-1 per vertex (nvert); zero for kinematic vertices
  std::vector<glm::vec3> p_;        // p_i = h W_i'^-1 f~_i (Eq. 18), or the imposed dv (nvert)
  std::vector<glm::vec3> dv_;       // current iterate of dv (nvert)
  std::vector<glm::vec3> dv_next_;  // next iterate (nvert)
  AlignedFloats coupling_;          // sum_j B_ij dv_j per vertex, 4 floats each (link_scatter.h)
  AlignedFloats dv_record_;         // dv_ in 4-float records for the SIMD pass (link_pass_simd.h)
  static constexpr size_t kBlock = 512;  // links per vectorised block
  std::vector<float> cix_, ciy_, ciz_, cjx_, cjy_, cjz_;  // per-link coupling onto each end (kBlock)
};

}  // namespace weft
