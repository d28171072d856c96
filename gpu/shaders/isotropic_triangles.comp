#version 450
// Per triangle: the isotropic membrane (sim/isotropic_membrane.cpp's isotropic_triangle, `weave membrane
// isotropic`) in place of weave_triangles.comp: the principal stretches s1 >= s2 of F = [U V] and their frames,
// the weft curve at s_i - 1 plus the weft viscosity times s_i' on each, corner forces -A sigma_i (v_i . r_k) u_i;
// per corner pair (0,1) (1,2) (0,2) the energy's Hessian in its eigenbasis (two stretch modes, twist, flip, two
// out-of-plane modes) with negative eigenvalues dropped, and the two stretch modes' damping. Written as
// weave_triangles.comp writes (h K (v_l - v_k) on the corners, K + D / h per pair), gathered the same way.
#include "step_layout.glsl"
#include "force_layout.glsl"
#include "stress_curve.glsl"

const float kInvSqrt2 = 0.70710678;

vec3 any_perpendicular(vec3 a) {
  vec3 t = abs(a.x) < 0.9 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0);
  return normalize(cross(a, t));
}

// s (p q^T + q p^T) / 2 as (xx xy xz yy | yz zz), Sym3::sym_outer
void add_sym_outer(inout vec4 a, inout vec2 b, vec3 p, vec3 q, float s) {
  a += vec4(s * p.x * q.x, 0.5 * s * (p.x * q.y + p.y * q.x), 0.5 * s * (p.x * q.z + p.z * q.x), s * p.y * q.y);
  b += vec2(0.5 * s * (p.y * q.z + p.z * q.y), s * p.z * q.z);
}

void main() {
  uint t = gl_GlobalInvocationID.x;
  if (t >= fp.ntri) return;
  uvec3 c = tri[t].xyz;
  vec4 cu4 = tri_coef[2 * t], cv4 = tri_coef[2 * t + 1];
  float ru[3] = float[3](cu4.x, cu4.y, cu4.z), rv[3] = float[3](cv4.x, cv4.y, cv4.z);
  float A = cu4.w;
  vec3 p[3] = vec3[3](x[c.x].xyz, x[c.y].xyz, x[c.z].xyz);
  vec3 pv[3] = vec3[3](v[c.x].xyz, v[c.y].xyz, v[c.z].xyz);
  vec3 U = ru[0] * p[0] + ru[1] * p[1] + ru[2] * p[2];
  vec3 V = rv[0] * p[0] + rv[1] * p[1] + rv[2] * p[2];
  vec3 dU = ru[0] * pv[0] + ru[1] * pv[1] + ru[2] * pv[2];
  vec3 dV = rv[0] * pv[0] + rv[1] * pv[1] + rv[2] * pv[2];

  // principal_stretch: eigenvalues of F^T F = [[a, b], [b, c]], the small one from det = |U x V|^2
  float ca = dot(U, U), cb = dot(U, V), cc = dot(V, V);
  vec3 cr = cross(U, V);
  float half_diff = 0.5 * (ca - cc), radius = sqrt(half_diff * half_diff + cb * cb);
  float mu1 = 0.5 * (ca + cc) + radius;
  float mu2 = mu1 > 0.0 ? dot(cr, cr) / mu1 : 0.0;
  float s1 = sqrt(mu1), s2 = sqrt(mu2);
  vec2 e1 = vec2(cb, mu1 - ca), e2 = vec2(mu1 - cc, cb);
  vec2 v1 = dot(e1, e1) > dot(e2, e2) ? e1 : e2;
  float vlen = length(v1);
  v1 = vlen > 1e-12 * (ca + cc) && vlen > 0.0 ? v1 / vlen : vec2(1.0, 0.0);
  vec2 v2 = vec2(-v1.y, v1.x);
  vec3 u1 = s1 > 1e-12 ? (U * v1.x + V * v1.y) / s1 : vec3(1.0, 0.0, 0.0);
  vec3 u2 = s2 > 1e-6 * s1 ? (U * v2.x + V * v2.y) / s2 : any_perpendicular(u1);
  vec3 n = cross(u1, u2);

  float visc = fp.viscosity.x;  // the weft curve's, for every direction
  vec2 c1 = curve(0, s1 - 1.0), c2 = curve(0, s2 - 1.0);
  float rate1 = v1.x * dot(u1, dU) + v1.y * dot(u1, dV), rate2 = v2.x * dot(u2, dU) + v2.y * dot(u2, dV);
  float stress1 = c1.x + visc * rate1, stress2 = c2.x + visc * rate2;
  float vr1[3], vr2[3];
  vec3 f[3];
  for (int k = 0; k < 3; ++k) {
    vr1[k] = v1.x * ru[k] + v1.y * rv[k];
    vr2[k] = v2.x * ru[k] + v2.y * rv[k];
    f[k] = -A * (stress1 * vr1[k] * u1 + stress2 * vr2[k] * u2);
  }
  float W1 = c1.x, W2 = c2.x;
  float twist = s1 + s2 > 1e-12 ? (W1 + W2) / (s1 + s2) : 0.0;
  float flip = s1 - s2 > 1e-4 * (s1 + s2) ? (W1 - W2) / (s1 - s2) : 0.5 * (c1.y + c2.y);
  float lambda[6] = float[6](c1.y, c2.y, twist, flip, s1 > 1e-12 ? W1 / s1 : 0.0, s2 > 1e-12 ? W2 / s2 : 0.0);
  const int pair[6] = int[6](0, 1, 1, 2, 0, 2);
  for (int q = 0; q < 3; ++q) {
    int k = pair[2 * q], l = pair[2 * q + 1];
    vec3 gk[6] = vec3[6](vr1[k] * u1, vr2[k] * u2, kInvSqrt2 * (vr1[k] * u2 - vr2[k] * u1),
                         kInvSqrt2 * (vr1[k] * u2 + vr2[k] * u1), vr1[k] * n, vr2[k] * n);
    vec3 gl[6] = vec3[6](vr1[l] * u1, vr2[l] * u2, kInvSqrt2 * (vr1[l] * u2 - vr2[l] * u1),
                         kInvSqrt2 * (vr1[l] * u2 + vr2[l] * u1), vr1[l] * n, vr2[l] * n);
    vec4 a = vec4(0.0);
    vec2 b = vec2(0.0);
    for (int m = 0; m < 6; ++m)
      if (lambda[m] > 0.0) add_sym_outer(a, b, gk[m], gl[m], -A * lambda[m]);
    vec4 da = vec4(0.0);
    vec2 db = vec2(0.0);
    add_sym_outer(da, db, gk[0], gl[0], -A * visc);
    add_sym_outer(da, db, gk[1], gl[1], -A * visc);
    // Kang Eq. 13: h K (v_l - v_k) on corner k, the opposite on corner l; the block carries D / h
    vec3 w = pc.h * sym_mul(a, vec4(b, 0.0, 0.0), pv[l] - pv[k]);
    f[k] += w;
    f[l] -= w;
    a += (1.0 / pc.h) * da;
    b += (1.0 / pc.h) * db;
    put_block(3 * t + q, a.x, a.y, a.z, a.w, b.x, b.y);
  }
  for (int k = 0; k < 3; ++k) elem_force[3 * t + k] = vec4(f[k], 0.0);
}
