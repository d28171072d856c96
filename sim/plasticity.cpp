#include "sim/plasticity.h"

#include <cmath>

#include "sim/weft_warp_kernels.h"

namespace weft {
namespace {

// Keeps |e - p| <= yield by moving p (the return mapping of Volino 1995 sec. 3.4's plastic rest state).
float return_map(float e, float p, float yield) {
  if (e - p > yield) return e - yield;
  if (p - e > yield) return e + yield;
  return p;
}

void update_hinges(const ClothModel& model, ClothState& state, float h) {
  const WeftWarpModel& w = model.weft_warp;
  const PlasticityParams& p = model.material.weave.plasticity;
  const float relax = 1.f - std::exp(-h / p.relaxation_time);
  const glm::vec3* x = state.position.data();
  for (size_t e = 0; e < w.hinge_count(); ++e) {
    float& rest = state.hinge_rest_angle[e];
    rest += (w.hinge_rest_angle[e] - rest) * relax;
    const auto& hv = w.hinge[e];
    const HingeAngle a = hinge_angle({x[hv[0]], x[hv[1]], x[hv[2]], x[hv[3]]});
    if (!a.valid) continue;
    rest = return_map(a.theta, rest, p.yield_curvature / w.curvature_per_angle[e]);
  }
}

void update_triangles(const ClothModel& model, ClothState& state, float h) {
  const WeftWarpModel& w = model.weft_warp;
  const PlasticityParams& p = model.material.weave.plasticity;
  const float keep = std::exp(-h / p.strain_relaxation_time);  // relaxes toward the original rest state, e_p = 0
  const glm::vec3* x = state.position.data();
  for (size_t t = 0; t < w.triangle_count(); ++t) {
    const auto& tri = model.triangle[t];
    const std::array<float, 3> e = weave_strains({w.ru[t], w.rv[t], w.area[t]}, {x[tri[0]], x[tri[1]], x[tri[2]]});
    std::array<float, 3>& ep = state.plastic_strain[t];
    ep[0] = return_map(e[0], ep[0] * keep, p.yield_strain);
    ep[1] = return_map(e[1], ep[1] * keep, p.yield_strain);
    ep[2] = return_map(e[2], ep[2] * keep, p.shear_yield_strain);
  }
}

}  // namespace

void update_plasticity(const ClothModel& model, ClothState& state, float h) {
  const WeftWarpModel& w = model.weft_warp;
  if (w.hinge_count() > 0 && state.hinge_rest_angle.size() == w.hinge_count()) update_hinges(model, state, h);
  if (w.triangle_count() > 0 && state.plastic_strain.size() == w.triangle_count()) update_triangles(model, state, h);
}

}  // namespace weft
