#include "sim/plasticity.h"

#include <cmath>

#include "sim/weft_warp_kernels.h"

namespace weft {

void update_plasticity(const ClothModel& model, ClothState& state, float h) {
  const WeftWarpModel& w = model.weft_warp;
  if (state.hinge_rest_angle.size() != w.hinge_count() || w.hinge_count() == 0) return;
  const PlasticityParams& p = model.material.weave.plasticity;
  const float relax = 1.f - std::exp(-h / p.relaxation_time);
  const glm::vec3* x = state.position.data();
  for (size_t e = 0; e < w.hinge_count(); ++e) {
    float& rest = state.hinge_rest_angle[e];
    rest += (w.hinge_rest_angle[e] - rest) * relax;
    const auto& hv = w.hinge[e];
    const HingeAngle a = hinge_angle({x[hv[0]], x[hv[1]], x[hv[2]], x[hv[3]]});
    if (!a.valid) continue;
    const float yield = p.yield_curvature / w.curvature_per_angle[e];
    if (a.theta - rest > yield) rest = a.theta - yield;
    else if (rest - a.theta > yield) rest = a.theta + yield;
  }
}

}  // namespace weft
