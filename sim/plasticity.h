#pragma once
// Bending plasticity of the weft/warp hinges (Volino, Courchesne & Thalmann 1995 sec. 3.4): past a
// yield the equilibrium (the hinge's rest angle) moves with the bend, a permanent crease; a relaxation
// time brings it back toward the material's rest angle once the bend is released.
#include "sim/cloth_model.h"
#include "sim/cloth_state.h"

namespace weft {

// One step of h seconds, after the integrator: each hinge's plastic rest angle theta_p relaxes,
//   theta_p += (theta0 - theta_p) (1 - exp(-h / tau)),
// then is pulled to within the yield angle of the current angle theta (return mapping):
//   |theta - theta_p| <= kappa_yield / curvature_per_angle.
// Does nothing unless the state carries plastic rest angles (make_rest_state sizes them when the
// material's plasticity is on).
void update_plasticity(const ClothModel& model, ClothState& state, float h);

}  // namespace weft
