#include "sim/force_kernels.h"

#include <cmath>

namespace weft {

std::array<float, 3> volino_tensions(const std::array<float, 3>& l, const std::array<float, 3>& L,
                                     const std::array<float, 3>& strength, const std::array<float, 3>& inv_mass,
                                     float alpha, bool general_mass, float min_determinant) {
  const std::array<float, 3> e = {l[0] - L[0], l[1] - L[1], l[2] - L[2]};  // elongations l_i - L_i
  std::array<float, 3> c;  // Eq. 1
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    c[i] = alpha * (l[j] * l[j] + l[k] * l[k] - l[i] * l[i]) / (2.f * l[j] * l[k]);
  }
  std::array<float, 3> d = e;  // spring-mass elongations (alpha = 0)
  if (alpha > 0.f) {
    // System matrix A d = e. Row i: d_i + w_ij d_j + w_ik d_k with
    //   w_ij = c_k M_k / (M_k + M_i)  (Eq. 4; 1/2 c_k for equal masses, Eq. 9).
    float A[3][3];
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      A[i][i] = 1.f;
      if (general_mass) {
        const float nj = inv_mass[k] + inv_mass[i], nk = inv_mass[j] + inv_mass[i];
        A[i][j] = nj > 0.f ? c[k] * inv_mass[k] / nj : 0.f;
        A[i][k] = nk > 0.f ? c[j] * inv_mass[j] / nk : 0.f;
      } else {
        A[i][j] = 0.5f * c[k];
        A[i][k] = 0.5f * c[j];
      }
    }
    const float det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                      A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                      A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    if (std::fabs(det) > min_determinant) {  // the equilateral alpha = 1 case has det = 0.84
      const float inv = 1.f / det;
      d[0] = inv * (e[0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (e[1] * A[2][2] - A[1][2] * e[2]) +
                    A[0][2] * (e[1] * A[2][1] - A[1][1] * e[2]));
      d[1] = inv * (A[0][0] * (e[1] * A[2][2] - A[1][2] * e[2]) - e[0] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                    A[0][2] * (A[1][0] * e[2] - e[1] * A[2][0]));
      d[2] = inv * (A[0][0] * (A[1][1] * e[2] - e[1] * A[2][1]) - A[0][1] * (A[1][0] * e[2] - e[1] * A[2][0]) +
                    e[0] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]));
    }
  }
  return {strength[0] * d[0], strength[1] * d[1], strength[2] * d[2]};  // F_i = R_i / L_i d_i (Eq. 10)
}

AirForce air_force(const glm::vec3& n, const glm::vec3& v_rel, float area, float drag, float lift) {
  AirForce out;
  const float speed = glm::length(v_rel);
  if (!(speed > 1e-6f)) return out;
  const glm::vec3 v_hat = v_rel / speed;
  const float n_dot_v = glm::dot(n, v_hat);
  const float sin_theta = std::fabs(n_dot_v);
  // Eq. 31: f = -K_D |n.v| |v|^2 v_hat = -c v with c = K_D |n.v| |v|
  out.drag_coefficient = drag * area * sin_theta * speed;
  out.force = -out.drag_coefficient * v_rel;
  if (lift > 0.f) {
    // Eq. 32: lift direction perpendicular to the velocity, on the side the normal faces
    const glm::vec3 nn = n_dot_v > 0.f ? n : -n;
    const glm::vec3 U = glm::cross(glm::cross(nn, v_hat), v_hat);
    // Eq. 34 with the magnitude proportional to 1 - |sin theta|
    out.force += lift * area * (1.f - sin_theta) * speed * speed * U;
  }
  return out;
}

}  // namespace weft
