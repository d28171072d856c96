#pragma once
// Pure force kernels, one formula each, with their source. Unit-tested against finite differences in
// tests/sim/force_kernels_test.cpp.
#include <array>

#include <glm/glm.hpp>

#include "sim/sym3.h"

namespace weft {

// Jacobian block df_i/dx_j of a link with axial stiffness k carrying tension T along d = x_j - x_i of
// length l. Stretched (T > 0) it is Kang & Cho Eq. 21, k u u^T + T/l (I - u u^T); compressed the
// transverse term is dropped (Kang & Cho Eq. 22, l0 taken equal to l), so the block stays bounded
// and positive semi-definite however far the link is compressed.
inline Sym3 link_jacobian(float k, float tension, const glm::vec3& u, float length) {
  const float transverse = tension > 0.f ? tension / length : 0.f;
  Sym3 J = Sym3::outer(u, k - transverse);
  J.add_diagonal(transverse);
  return J;
}

// Hooke spring force on x_i from the link (i, j): Kang & Cho Eq. 1.
inline glm::vec3 spring_force(float k, float rest_length, const glm::vec3& xi, const glm::vec3& xj) {
  const glm::vec3 d = xj - xi;
  const float l = glm::length(d);
  return k * (l - rest_length) * (d / l);
}

// Edge tensions of one Volino-Thalmann elastic triangle (1997 Annex). Corner i is opposite edge i;
// l and L are the current and rest lengths opposite each corner, strength = R_i / L_i (Eq. 3),
// inv_mass the corners' inverse masses M_i. alpha interpolates between the spring-mass model
// (alpha = 0, Eq. 2-3) and the full model (alpha = 1): cosines c_i = alpha cos(angle i) (Eq. 1).
// general_mass selects Eq. 6-7 (solved here by Cramer's rule) over the equal-mass Eq. 10.
// When the 3x3 system is near-singular (|det| <= min_determinant; only possible for alpha > 1 on very
// deformed triangles) the triangle falls back to the spring-mass tensions, so no configuration yields
// an infinite force. The equilateral alpha = 1 triangle has det = 0.84.
std::array<float, 3> volino_tensions(const std::array<float, 3>& l, const std::array<float, 3>& L,
                                     const std::array<float, 3>& strength, const std::array<float, 3>& inv_mass,
                                     float alpha, bool general_mass, float min_determinant = 0.05f);

// Per-vertex air force (Kang & Cho Eq. 31-34) on a vertex of area `area` with unit normal n moving at
// v_rel relative to the air. drag and lift are K_D and K_L per unit area. Also returns the linear drag
// coefficient c with f_drag = -c v_rel, used as the implicit velocity derivative -c I.
struct AirForce {
  glm::vec3 force{0.f};
  float drag_coefficient = 0.f;
};
AirForce air_force(const glm::vec3& n, const glm::vec3& v_rel, float area, float drag, float lift);

}  // namespace weft
