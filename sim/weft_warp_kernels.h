#pragma once
// Pure kernels of the weft/warp model (Volino & Thalmann 2005 sec. 2.2.2): weave coefficients of a
// triangle, its strains, forces and Jacobian blocks, and the anisotropic bending hinge. Unit-tested
// against finite differences in tests/sim/weft_warp_kernels_test.cpp.
#include <array>

#include <glm/glm.hpp>

#include "sim/stress_curve.h"
#include "sim/sym3.h"

namespace weft {

// (R_ua, R_ub, R_uc, R_va, R_vb, R_vc) of Eq. 2 from the corners' 2D weave coordinates, and the
// rest area |d| / 2. Returns false for a degenerate (zero-area) triangle.
struct WeaveCoefficients {
  std::array<float, 3> ru{}, rv{};  // 1/m: U = sum ru_k P_k, V = sum rv_k P_k (Eq. 3)
  float area = 0;                   // m^2
};
bool weave_coefficients(const glm::vec2& a, const glm::vec2& b, const glm::vec2& c, WeaveCoefficients& out);

// The weave frame of a rest triangle: unit weft direction T and warp direction B in its plane, from
// the gradient of the material (texture) coordinate u over the triangle, rotated by angle (radians)
// about the normal. Falls back to the projection of `fallback_u` (then the first edge) when the
// material coordinates are degenerate. Returns the 2D weave coordinates of the three corners (m).
std::array<glm::vec2, 3> weave_frame_coordinates(const std::array<glm::vec3, 3>& p, const std::array<glm::vec2, 3>& uv,
                                                 float angle, const glm::vec3& fallback_u = {1, 0, 0});

// In-plane strains (Eq. 4) and their rates (Eq. 6).
struct WeaveStrain {
  float uu = 0, vv = 0, uv = 0;        // weft, warp, shear strain
  float duu = 0, dvv = 0, duv = 0;     // their time derivatives, 1/s
};
WeaveStrain weave_strain(const WeaveCoefficients& w, const std::array<glm::vec3, 3>& p,
                         const std::array<glm::vec3, 3>& v);
// The strains alone {uu, vv, uv} (Eq. 3-4), for what needs no rates (plasticity's return mapping).
std::array<float, 3> weave_strains(const WeaveCoefficients& w, const std::array<glm::vec3, 3>& p);

struct WeaveLaw {
  const StressCurve* curve[3];  // weft, warp, shear
  float viscosity[3];           // N s/m each
};

// Forces on the three corners and the Jacobian blocks of one triangle. The force is minus the gradient
// of area * (Psi_uu + Psi_vv + Psi_uv) plus the viscous stresses eta e' (Eq. 6): to first order in the
// shear it is Eq. 7, and unlike Eq. 7 it is exactly conservative, so its Jacobian is symmetric.
// Blocks are J_kl = dF_k/dP_l for the pairs (0,1), (1,2), (0,2): stiffness with the compressive
// geometric terms dropped and each block symmetrised (positive semi-definite sums, as the links'
// Kang Eq. 22), and the damping blocks dF_k/dV_l likewise.
struct WeaveTriangleResult {
  std::array<glm::vec3, 3> force{};
  std::array<Sym3, 3> stiffness{};  // pairs (0,1), (1,2), (0,2), N/m
  std::array<Sym3, 3> damping{};    // same pairs, N s/m
  double energy = 0;                // elastic energy, J
  WeaveStrain strain;
};
// energy: also fill out.energy (three curve integrals: only for energy reports). plastic: the triangle's
// plastic strains {uu, vv, uv} (Volino 1995 sec. 3.4): the curves are evaluated at the elastic strain
// e - e_p, so stress, energy and stiffness vanish at the plastically moved rest state; out.strain stays e.
void weave_triangle(const WeaveCoefficients& w, const std::array<glm::vec3, 3>& p, const std::array<glm::vec3, 3>& v,
                    const WeaveLaw& law, bool blocks, WeaveTriangleResult& out, bool energy = true,
                    const std::array<float, 3>& plastic = {});

// Bending hinge across the edge x0-x1, x2 opposite in triangle (x0, x1, x2) (counter-clockwise, so its
// normal is the winding normal) and x3 in the other. Signed dihedral angle, positive when the
// triangles fold toward the normal side, and its gradient (Bridson et al. 2003, the angle's form).
struct HingeAngle {
  float theta = 0;                  // rad
  std::array<glm::vec3, 4> grad{};  // d theta / d x_k, 1/m
  bool valid = false;               // false when a triangle is collapsed
};
HingeAngle hinge_angle(const std::array<glm::vec3, 4>& x);

}  // namespace weft
