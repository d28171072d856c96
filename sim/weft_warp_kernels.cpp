#include "sim/weft_warp_kernels.h"

#include <cmath>

namespace weft {
namespace {

constexpr float kInvSqrt2 = 0.70710678f;

// (I - n n^T) / len scaled by s: the transverse stiffness of a stretched direction.
Sym3 transverse(const glm::vec3& n, float len, float s) {
  Sym3 m = Sym3::outer(n, -s / len);
  m.add_diagonal(s / len);
  return m;
}

struct Direction {
  glm::vec3 unit{0.f};
  float length = 0;
};
Direction direction(const glm::vec3& w) {
  const float l = glm::length(w);
  return {l > 1e-12f ? w / l : glm::vec3(0.f), l};
}

}  // namespace

bool weave_coefficients(const glm::vec2& a, const glm::vec2& b, const glm::vec2& c, WeaveCoefficients& out) {
  // Eq. 2
  const float d = a.x * (b.y - c.y) + b.x * (c.y - a.y) + c.x * (a.y - b.y);
  if (!(std::fabs(d) > 1e-14f) || !std::isfinite(d)) return false;
  const float inv = 1.f / d;
  out.ru = {inv * (b.y - c.y), -inv * (a.y - c.y), inv * (a.y - b.y)};
  out.rv = {-inv * (b.x - c.x), inv * (a.x - c.x), -inv * (a.x - b.x)};
  out.area = 0.5f * std::fabs(d);
  return true;
}

std::array<glm::vec2, 3> weave_frame_coordinates(const std::array<glm::vec3, 3>& p, const std::array<glm::vec2, 3>& uv,
                                                 float angle, const glm::vec3& fallback_u) {
  const glm::vec3 e1 = p[1] - p[0], e2 = p[2] - p[0];
  const glm::vec3 n = glm::normalize(glm::cross(e1, e2));
  // dP/du over the triangle (the texture tangent): solve e = du dP/du + dv dP/dv for both edges
  const glm::vec2 d1 = uv[1] - uv[0], d2 = uv[2] - uv[0];
  const float det = d1.x * d2.y - d2.x * d1.y;
  glm::vec3 t(0.f);
  if (std::fabs(det) > 1e-12f * (glm::dot(d1, d1) + glm::dot(d2, d2)) && std::isfinite(det))
    t = (d2.y * e1 - d1.y * e2) / det;
  t -= glm::dot(t, n) * n;
  if (!(glm::length(t) > 1e-9f)) {  // degenerate texture coordinates: project the fallback axis
    t = fallback_u - glm::dot(fallback_u, n) * n;
    if (!(glm::length(t) > 1e-6f)) t = e1;
  }
  t = glm::normalize(t);
  const glm::vec3 b = glm::cross(n, t);
  const glm::vec3 weft = std::cos(angle) * t + std::sin(angle) * b, warp = glm::cross(n, weft);
  std::array<glm::vec2, 3> out;
  for (int k = 0; k < 3; ++k) out[k] = {glm::dot(p[k] - p[0], weft), glm::dot(p[k] - p[0], warp)};
  return out;
}

WeaveStrain weave_strain(const WeaveCoefficients& w, const std::array<glm::vec3, 3>& p,
                         const std::array<glm::vec3, 3>& v) {
  // Eq. 3 and 5
  const glm::vec3 U = w.ru[0] * p[0] + w.ru[1] * p[1] + w.ru[2] * p[2];
  const glm::vec3 V = w.rv[0] * p[0] + w.rv[1] * p[1] + w.rv[2] * p[2];
  const glm::vec3 dU = w.ru[0] * v[0] + w.ru[1] * v[1] + w.ru[2] * v[2];
  const glm::vec3 dV = w.rv[0] * v[0] + w.rv[1] * v[1] + w.rv[2] * v[2];
  const Direction u = direction(U), vv = direction(V), s = direction(U + V), d = direction(U - V);
  WeaveStrain e;
  // Eq. 4
  e.uu = u.length - 1.f;
  e.vv = vv.length - 1.f;
  e.uv = kInvSqrt2 * (s.length - d.length);
  // Eq. 6
  e.duu = glm::dot(u.unit, dU);
  e.dvv = glm::dot(vv.unit, dV);
  e.duv = kInvSqrt2 * (glm::dot(s.unit, dU + dV) - glm::dot(d.unit, dU - dV));
  return e;
}

std::array<float, 3> weave_strains(const WeaveCoefficients& w, const std::array<glm::vec3, 3>& p) {
  const glm::vec3 U = w.ru[0] * p[0] + w.ru[1] * p[1] + w.ru[2] * p[2];
  const glm::vec3 V = w.rv[0] * p[0] + w.rv[1] * p[1] + w.rv[2] * p[2];
  return {glm::length(U) - 1.f, glm::length(V) - 1.f, kInvSqrt2 * (glm::length(U + V) - glm::length(U - V))};
}

void weave_triangle(const WeaveCoefficients& w, const std::array<glm::vec3, 3>& p, const std::array<glm::vec3, 3>& v,
                    const WeaveLaw& law, bool blocks, WeaveTriangleResult& out, bool energy,
                    const std::array<float, 3>& plastic) {
  const glm::vec3 U = w.ru[0] * p[0] + w.ru[1] * p[1] + w.ru[2] * p[2];
  const glm::vec3 V = w.rv[0] * p[0] + w.rv[1] * p[1] + w.rv[2] * p[2];
  const Direction du = direction(U), dv = direction(V), ds = direction(U + V), dd = direction(U - V);
  // Eq. 4-6 from the vectors above
  const glm::vec3 dU = w.ru[0] * v[0] + w.ru[1] * v[1] + w.ru[2] * v[2];
  const glm::vec3 dV = w.rv[0] * v[0] + w.rv[1] * v[1] + w.rv[2] * v[2];
  WeaveStrain e;
  e.uu = du.length - 1.f;
  e.vv = dv.length - 1.f;
  e.uv = kInvSqrt2 * (ds.length - dd.length);
  e.duu = glm::dot(du.unit, dU);
  e.dvv = glm::dot(dv.unit, dV);
  e.duv = kInvSqrt2 * (glm::dot(ds.unit, dU + dV) - glm::dot(dd.unit, dU - dV));
  out.strain = e;
  // elastic strains: the plastic part moved the rest state (Volino 1995 sec. 3.4)
  const float el_uu = e.uu - plastic[0], el_vv = e.vv - plastic[1], el_uv = e.uv - plastic[2];
  const CurveSample cu = (*law.curve[0])(el_uu), cv = (*law.curve[1])(el_vv), cs = (*law.curve[2])(el_uv);
  out.energy = energy ? double(w.area) * (law.curve[0]->energy(el_uu) + law.curve[1]->energy(el_vv) + law.curve[2]->energy(el_uv))
                      : 0.0;
  const float s_uu = cu.stress + law.viscosity[0] * e.duu;
  const float s_vv = cv.stress + law.viscosity[1] * e.dvv;
  const float s_uv = cs.stress + law.viscosity[2] * e.duv;
  // Strain gradients per corner: d e_uu/dP_k = ru_k U^, d e_vv/dP_k = rv_k V^,
  // d e_uv/dP_k = ((ru_k + rv_k) S^ - (ru_k - rv_k) D^) / sqrt 2 with S = U + V, D = U - V.
  std::array<glm::vec3, 3> g_uv;
  for (int k = 0; k < 3; ++k) {
    g_uv[k] = kInvSqrt2 * ((w.ru[k] + w.rv[k]) * ds.unit - (w.ru[k] - w.rv[k]) * dd.unit);
    out.force[k] = -w.area * (s_uu * w.ru[k] * du.unit + s_vv * w.rv[k] * dv.unit + s_uv * g_uv[k]);
  }
  if (!blocks) return;
  static constexpr int pair[3][2] = {{0, 1}, {1, 2}, {0, 2}};
  const float A = w.area;
  for (int q = 0; q < 3; ++q) {
    const int k = pair[q][0], l = pair[q][1];
    // stiffness: -A [sigma' g_k g_l^T + max(sigma, 0) d2e/dP_k dP_l]
    const float cuu = w.ru[k] * w.ru[l], cvv = w.rv[k] * w.rv[l];
    Sym3 K = Sym3::outer(du.unit, -A * cu.slope * cuu) + Sym3::outer(dv.unit, -A * cv.slope * cvv) +
             Sym3::sym_outer(g_uv[k], g_uv[l], -A * cs.slope);
    if (cu.stress > 0.f && du.length > 0.f) K += transverse(du.unit, du.length, -A * cu.stress * cuu);
    if (cv.stress > 0.f && dv.length > 0.f) K += transverse(dv.unit, dv.length, -A * cv.stress * cvv);
    const float css = (w.ru[k] + w.rv[k]) * (w.ru[l] + w.rv[l]), cdd = (w.ru[k] - w.rv[k]) * (w.ru[l] - w.rv[l]);
    if (cs.stress > 0.f && ds.length > 0.f) K += transverse(ds.unit, ds.length, -A * kInvSqrt2 * cs.stress * css);
    if (cs.stress < 0.f && dd.length > 0.f) K += transverse(dd.unit, dd.length, A * kInvSqrt2 * cs.stress * cdd);
    out.stiffness[q] = K;
    out.damping[q] = Sym3::outer(du.unit, -A * law.viscosity[0] * cuu) + Sym3::outer(dv.unit, -A * law.viscosity[1] * cvv) +
                     Sym3::sym_outer(g_uv[k], g_uv[l], -A * law.viscosity[2]);
  }
}

HingeAngle hinge_angle(const std::array<glm::vec3, 4>& x) {
  HingeAngle h;
  const glm::vec3 e = x[1] - x[0];
  const float len = glm::length(e);
  const glm::vec3 nA = glm::cross(e, x[2] - x[0]), nB = glm::cross(x[3] - x[0], e);
  const float a2 = glm::dot(nA, nA), b2 = glm::dot(nB, nB);
  if (!(len > 1e-12f && a2 > 1e-24f && b2 > 1e-24f)) return h;
  const glm::vec3 eh = e / len;
  h.theta = std::atan2(-glm::dot(glm::cross(nA, nB), eh), glm::dot(nA, nB));
  const glm::vec3 qa = nA / a2, qb = nB / b2;
  h.grad[2] = len * qa;
  h.grad[3] = len * qb;
  h.grad[0] = glm::dot(x[2] - x[1], eh) * qa + glm::dot(x[3] - x[1], eh) * qb;
  h.grad[1] = -glm::dot(x[2] - x[0], eh) * qa - glm::dot(x[3] - x[0], eh) * qb;
  h.valid = true;
  return h;
}

}  // namespace weft
