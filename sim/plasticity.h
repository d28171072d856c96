#pragma once
// Plasticity of the weft/warp model (Volino, Courchesne & Thalmann 1995 sec. 3.4): past a yield the
// equilibrium moves with the deformation, a permanent crease (hinges: their rest angle) or a permanent
// stretch (triangles: a plastic strain per weave direction); a relaxation time brings it back toward the
// original rest state once the load is released.
#include "sim/cloth_model.h"
#include "sim/cloth_state.h"

namespace weft {

// One step of h seconds, after the integrator: each hinge's plastic rest angle theta_p relaxes,
//   theta_p += (theta0 - theta_p) (1 - exp(-h / tau)),
// then is pulled to within the yield angle of the current angle theta (return mapping):
//   |theta - theta_p| <= kappa_yield / curvature_per_angle.
// In plane, each triangle's plastic strains e_p (weft uu, warp vv, shear uv) likewise relax toward 0,
//   e_p -= e_p (1 - exp(-h / tau_strain)),
// then are pulled to within the yield strain of the current strain e: |e - e_p| <= e_yield per direction.
// Each part does nothing unless the state carries its plastic data (make_rest_state sizes the hinges'
// when the material's bending plasticity is on, the triangles' when its in-plane plasticity is on).
// Never allocates.
void update_plasticity(const ClothModel& model, ClothState& state, float h);

}  // namespace weft
