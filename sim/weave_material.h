#pragma once
// The weft/warp fabric of Volino & Thalmann 2005 sec. 2: three independent nonlinear strain-stress
// curves (weft uu, warp vv, shear uv; orthotropic, no Poisson coupling), a viscosity per direction,
// and a bending rigidity per weave direction with an optional rest curvature. Plasticity follows
// Volino, Courchesne & Thalmann 1995 sec. 3.4. Plain data, part of Material.
#include "sim/stress_curve.h"

namespace weft {

// Plasticity (Volino 1995 sec. 3.4). Bending: past a yield curvature the rest curvature of a hinge
// follows the bend (a crease stays), and relaxes back to the material's rest curvature with a time
// constant once the bend is released. In plane (in_plane): past a yield strain the triangle's rest
// state moves, a plastic strain per direction (weft, warp, shear) that the stress curves see subtracted,
// and that relaxes back to 0 with its own time constant.
struct PlasticityParams {
  bool enabled = false;          // bending plasticity of the hinges
  float yield_curvature = 20.f;  // 1/m: elastic range of |curvature - plastic rest curvature|
  float relaxation_time = 5.f;   // s: e-folding time of the plastic rest curvature back to the original
  bool in_plane = false;               // in-plane plasticity of the weave triangles
  float yield_strain = 0.02f;          // elastic range of |e - e_p| along weft and warp
  float shear_yield_strain = 0.02f;    // elastic range of |e_uv - e_p,uv|
  float strain_relaxation_time = 30.f; // s: e-folding time of the plastic strains back to 0
};

// The in-plane law of the weave triangles. WeftWarp: Eq. 4 strains on three curves (orthotropic; the paper's
// model). Isotropic: the weft curve on the principal stretches (isotropic_membrane.h), for fabrics with one
// curve in every direction; warp and shear curves are then unused and in-plane plasticity is unavailable.
enum class Membrane { WeftWarp, Isotropic };

struct WeaveMaterial {
  Membrane membrane = Membrane::WeftWarp;
  StressCurve weft = StressCurve::linear(500.f);   // sigma_uu(e_uu), N/m
  StressCurve warp = StressCurve::linear(500.f);   // sigma_vv(e_vv), N/m
  StressCurve shear = StressCurve::linear(250.f);  // sigma_uv(e_uv), N/m; e_uv from the diagonals (Eq. 4)
  float weft_viscosity = 0.f;   // eta_uu: sigma_uu += eta e'_uu (Eq. 6), N s/m
  float warp_viscosity = 0.f;   // eta_vv, N s/m
  float shear_viscosity = 0.f;  // eta_uv, N s/m
  float weft_bending = 1e-5f;   // B_u: bending moment per unit width / curvature along the weft, N m
  float warp_bending = 1e-5f;   // B_v: the same along the warp, N m
  float weft_rest_curvature = 0.f;  // 1/m, positive curls toward the side the triangle normals face
  float warp_rest_curvature = 0.f;  // 1/m
  float angle_deg = 0.f;  // the weft runs at this angle from the mesh's material u axis (rotates the weave)
  PlasticityParams plasticity;
};

}  // namespace weft
