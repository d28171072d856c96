#pragma once
// The isotropic membrane: an alternative in-plane law for the weave triangles when the fabric is
// isotropic (one curve sigma(e) for every direction, shear half of it: the paper's test material
// sigma_uu = sigma_vv = 2 sigma_uv). The energy per unit rest area is Phi(s1 - 1) + Phi(s2 - 1) over the
// principal stretches s1, s2 of the triangle (the singular values of F = [U V], Eq. 3), Phi the curve's
// integral: Poisson 0, equal to the curve along every direction at any strain, and to the weft/warp
// model's shear to first order. The weft/warp strains of Eq. 4 are isotropic only to first order (at
// 50 % stretch 45 degrees off the threads they pull 15-25 % above the curve: docs/fabrics.md).
#include <array>

#include <glm/glm.hpp>

#include "sim/stress_curve.h"
#include "sim/weft_warp_kernels.h"

namespace weft {

// Principal stretches of F = [U V] (3x2) and their frames: F = s1 u1 v1^T + s2 u2 v2^T, u1, u2 unit and
// orthogonal in 3D, v1, v2 an orthonormal pair in the weave plane, s1 >= s2 >= 0. n = u1 x u2.
struct PrincipalStretch {
  float s[2] = {1.f, 1.f};
  glm::vec3 u[2] = {{1, 0, 0}, {0, 1, 0}};
  glm::vec2 v[2] = {{1, 0}, {0, 1}};
  glm::vec3 n{0, 0, 1};
};
PrincipalStretch principal_stretch(const glm::vec3& U, const glm::vec3& V);

// Forces, Jacobian blocks (same pairs and conventions as weave_triangle) and energy of one triangle. The
// blocks are the Hessian of the energy in its eigenbasis (two stretch modes, the in-plane twist and flip,
// two out-of-plane modes) with negative eigenvalues dropped: positive semi-definite, and exact when the
// triangle is stretched in both directions. viscosity adds eta s_i' to each principal stress.
// out.strain holds the principal strains (uu = s1 - 1, vv = s2 - 1, uv = 0) and their rates.
void isotropic_triangle(const WeaveCoefficients& w, const std::array<glm::vec3, 3>& p,
                        const std::array<glm::vec3, 3>& v, const StressCurve& curve, float viscosity, bool blocks,
                        WeaveTriangleResult& out, bool energy = true);

}  // namespace weft
