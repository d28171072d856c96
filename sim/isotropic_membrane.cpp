#include "sim/isotropic_membrane.h"

#include <cmath>

namespace weft {
namespace {

constexpr float kInvSqrt2 = 0.70710678f;

glm::vec3 any_perpendicular(const glm::vec3& a) {
  const glm::vec3 t = std::fabs(a.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
  return glm::normalize(glm::cross(a, t));
}

}  // namespace

PrincipalStretch principal_stretch(const glm::vec3& U, const glm::vec3& V) {
  // eigenvalues of C = F^T F = [[a, b], [b, c]]; the small one from det C = |U x V|^2, which keeps its
  // relative precision when the triangle is nearly collapsed
  const float a = glm::dot(U, U), b = glm::dot(U, V), c = glm::dot(V, V);
  const glm::vec3 cross = glm::cross(U, V);
  const float half_diff = 0.5f * (a - c), radius = std::sqrt(half_diff * half_diff + b * b);
  const float mu1 = 0.5f * (a + c) + radius;
  const float mu2 = mu1 > 0.f ? glm::dot(cross, cross) / mu1 : 0.f;
  PrincipalStretch r;
  r.s[0] = std::sqrt(mu1);
  r.s[1] = std::sqrt(mu2);
  // eigenvector of mu1: (b, mu1 - a) or (mu1 - c, b), whichever is longer; equal stretches: any pair
  glm::vec2 e1(b, mu1 - a), e2(mu1 - c, b);
  glm::vec2 v1 = glm::dot(e1, e1) > glm::dot(e2, e2) ? e1 : e2;
  const float len = glm::length(v1);
  v1 = len > 1e-12f * (a + c) && len > 0.f ? v1 / len : glm::vec2(1, 0);
  r.v[0] = v1;
  r.v[1] = {-v1.y, v1.x};
  const glm::vec3 f1 = U * r.v[0].x + V * r.v[0].y, f2 = U * r.v[1].x + V * r.v[1].y;
  r.u[0] = r.s[0] > 1e-12f ? f1 / r.s[0] : glm::vec3(1, 0, 0);
  r.u[1] = r.s[1] > 1e-6f * r.s[0] ? f2 / r.s[1] : any_perpendicular(r.u[0]);
  r.n = glm::cross(r.u[0], r.u[1]);
  return r;
}

void isotropic_triangle(const WeaveCoefficients& w, const std::array<glm::vec3, 3>& p,
                        const std::array<glm::vec3, 3>& v, const StressCurve& curve, float viscosity, bool blocks,
                        WeaveTriangleResult& out, bool energy) {
  const glm::vec3 U = w.ru[0] * p[0] + w.ru[1] * p[1] + w.ru[2] * p[2];
  const glm::vec3 V = w.rv[0] * p[0] + w.rv[1] * p[1] + w.rv[2] * p[2];
  const glm::vec3 dU = w.ru[0] * v[0] + w.ru[1] * v[1] + w.ru[2] * v[2];
  const glm::vec3 dV = w.rv[0] * v[0] + w.rv[1] * v[1] + w.rv[2] * v[2];
  const PrincipalStretch ps = principal_stretch(U, V);
  CurveSample c[2];
  float rate[2], stress[2];
  for (int i = 0; i < 2; ++i) {
    c[i] = curve(ps.s[i] - 1.f);
    rate[i] = ps.v[i].x * glm::dot(ps.u[i], dU) + ps.v[i].y * glm::dot(ps.u[i], dV);  // s_i' = u_i^T F' v_i
    stress[i] = c[i].stress + viscosity * rate[i];
  }
  out.strain = {ps.s[0] - 1.f, ps.s[1] - 1.f, 0.f, rate[0], rate[1], 0.f};
  out.energy = energy ? double(w.area) * (curve.energy(ps.s[0] - 1.f) + curve.energy(ps.s[1] - 1.f)) : 0.0;
  // d s_i / d P_k = u_i (v_i . r_k) with r_k = (ru_k, rv_k)
  const float A = w.area;
  float vr[2][3];
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 3; ++k) vr[i][k] = ps.v[i].x * w.ru[k] + ps.v[i].y * w.rv[k];
  for (int k = 0; k < 3; ++k) out.force[k] = -A * (stress[0] * vr[0][k] * ps.u[0] + stress[1] * vr[1][k] * ps.u[1]);
  if (!blocks) return;
  // Eigenvalues of d2 Psi / dF2 (Psi = Phi(s1 - 1) + Phi(s2 - 1)), each mode's direction E_m (3x2) giving the
  // corner vectors g_mk = E_m r_k: stretches u_i v_i^T (Phi''), twist (u2 v1^T - u1 v2^T)/sqrt 2
  // ((W1 + W2)/(s1 + s2)), flip (u2 v1^T + u1 v2^T)/sqrt 2 ((W1 - W2)/(s1 - s2), Phi'' in the limit),
  // out of plane n v_i^T (W_i / s_i), W_i = Phi'(s_i - 1). Negative ones (compression) are dropped.
  const float W1 = c[0].stress, W2 = c[1].stress, s1 = ps.s[0], s2 = ps.s[1];
  const float twist = s1 + s2 > 1e-12f ? (W1 + W2) / (s1 + s2) : 0.f;
  const float flip = s1 - s2 > 1e-4f * (s1 + s2) ? (W1 - W2) / (s1 - s2) : 0.5f * (c[0].slope + c[1].slope);
  const float lambda[6] = {c[0].slope, c[1].slope, twist, flip, s1 > 1e-12f ? W1 / s1 : 0.f,
                           s2 > 1e-12f ? W2 / s2 : 0.f};
  static constexpr int pair[3][2] = {{0, 1}, {1, 2}, {0, 2}};
  for (int q = 0; q < 3; ++q) {
    const int k = pair[q][0], l = pair[q][1];
    const glm::vec3 g[6][2] = {
        {vr[0][k] * ps.u[0], vr[0][l] * ps.u[0]},
        {vr[1][k] * ps.u[1], vr[1][l] * ps.u[1]},
        {kInvSqrt2 * (vr[0][k] * ps.u[1] - vr[1][k] * ps.u[0]), kInvSqrt2 * (vr[0][l] * ps.u[1] - vr[1][l] * ps.u[0])},
        {kInvSqrt2 * (vr[0][k] * ps.u[1] + vr[1][k] * ps.u[0]), kInvSqrt2 * (vr[0][l] * ps.u[1] + vr[1][l] * ps.u[0])},
        {vr[0][k] * ps.n, vr[0][l] * ps.n},
        {vr[1][k] * ps.n, vr[1][l] * ps.n}};
    Sym3 K;
    for (int m = 0; m < 6; ++m)
      if (lambda[m] > 0.f) K += Sym3::sym_outer(g[m][0], g[m][1], -A * lambda[m]);
    out.stiffness[q] = K;
    out.damping[q] = Sym3::sym_outer(g[0][0], g[0][1], -A * viscosity) + Sym3::sym_outer(g[1][0], g[1][1], -A * viscosity);
  }
}

}  // namespace weft
