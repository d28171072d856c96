#version 450
// Per triangle: the weft/warp membrane of Volino & Thalmann 2005 (Eq. 2-7), as sim/weft_warp_kernels.cpp's
// weave_triangle: strains and rates from U, V, U + V, U - V; the stress curves at the elastic strain (the
// plastic strains subtracted: Volino 1995 sec. 3.4) plus viscous stress; corner forces; per corner pair
// (0,1) (1,2) (0,2) the stiffness block with compressive geometric terms dropped, symmetrised, and the
// damping block. As weft_warp_forces.cpp with viscosity h: each corner's force gets the pairs' h K (v_j - v_i)
// and the pair's block is K + D / h. weave_links.comp and assemble.comp gather them in triangle order.
#include "step_layout.glsl"
#include "force_layout.glsl"
#include "stress_curve.glsl"

const float kInvSqrt2 = 0.70710678;

struct Dir { vec3 unit; float len; };
Dir direction(vec3 w) {
  float l = length(w);
  return Dir(l > 1e-12 ? w / l : vec3(0.0), l);
}

// m u u^T and s (I - n n^T) / len as (xx xy xz yy | yz zz)
void add_outer(inout vec4 a, inout vec2 b, vec3 u, float s) {
  a += s * vec4(u.x * u.x, u.x * u.y, u.x * u.z, u.y * u.y);
  b += s * vec2(u.y * u.z, u.z * u.z);
}
void add_sym_outer(inout vec4 a, inout vec2 b, vec3 p, vec3 q, float s) {
  a += vec4(s * p.x * q.x, 0.5 * s * (p.x * q.y + p.y * q.x), 0.5 * s * (p.x * q.z + p.z * q.x), s * p.y * q.y);
  b += vec2(0.5 * s * (p.y * q.z + p.z * q.y), s * p.z * q.z);
}
void add_transverse(inout vec4 a, inout vec2 b, vec3 n, float len, float s) {
  add_outer(a, b, n, -s / len);
  a += vec4(s / len, 0.0, 0.0, s / len);
  b += vec2(0.0, s / len);
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
  Dir du = direction(U), dv = direction(V), ds = direction(U + V), dd = direction(U - V);
  vec3 dU = ru[0] * pv[0] + ru[1] * pv[1] + ru[2] * pv[2];
  vec3 dV = rv[0] * pv[0] + rv[1] * pv[1] + rv[2] * pv[2];
  float euu = du.len - 1.0, evv = dv.len - 1.0, euv = kInvSqrt2 * (ds.len - dd.len);
  float duu = dot(du.unit, dU), dvv = dot(dv.unit, dV);
  float duv = kInvSqrt2 * (dot(ds.unit, dU + dV) - dot(dd.unit, dU - dV));
  uint pe = fp.nhinge + 3 * t;  // this triangle's plastic strains
  vec2 cu = curve(0, euu - plastic[pe]), cv = curve(1, evv - plastic[pe + 1]), cs = curve(2, euv - plastic[pe + 2]);
  float s_uu = cu.x + fp.viscosity.x * duu, s_vv = cv.x + fp.viscosity.y * dvv, s_uv = cs.x + fp.viscosity.z * duv;
  vec3 g_uv[3], f[3];
  for (int k = 0; k < 3; ++k) {
    g_uv[k] = kInvSqrt2 * ((ru[k] + rv[k]) * ds.unit - (ru[k] - rv[k]) * dd.unit);
    f[k] = -A * (s_uu * ru[k] * du.unit + s_vv * rv[k] * dv.unit + s_uv * g_uv[k]);
  }
  const int pair[6] = int[6](0, 1, 1, 2, 0, 2);
  for (int q = 0; q < 3; ++q) {
    int k = pair[2 * q], l = pair[2 * q + 1];
    float cuu = ru[k] * ru[l], cvv = rv[k] * rv[l];
    vec4 a = vec4(0.0);
    vec2 b = vec2(0.0);
    add_outer(a, b, du.unit, -A * cu.y * cuu);
    add_outer(a, b, dv.unit, -A * cv.y * cvv);
    add_sym_outer(a, b, g_uv[k], g_uv[l], -A * cs.y);
    if (cu.x > 0.0 && du.len > 0.0) add_transverse(a, b, du.unit, du.len, -A * cu.x * cuu);
    if (cv.x > 0.0 && dv.len > 0.0) add_transverse(a, b, dv.unit, dv.len, -A * cv.x * cvv);
    float css = (ru[k] + rv[k]) * (ru[l] + rv[l]), cdd = (ru[k] - rv[k]) * (ru[l] - rv[l]);
    if (cs.x > 0.0 && ds.len > 0.0) add_transverse(a, b, ds.unit, ds.len, -A * kInvSqrt2 * cs.x * css);
    if (cs.x < 0.0 && dd.len > 0.0) add_transverse(a, b, dd.unit, dd.len, A * kInvSqrt2 * cs.x * cdd);
    vec4 da = vec4(0.0);
    vec2 db = vec2(0.0);
    add_outer(da, db, du.unit, -A * fp.viscosity.x * cuu);
    add_outer(da, db, dv.unit, -A * fp.viscosity.y * cvv);
    add_sym_outer(da, db, g_uv[k], g_uv[l], -A * fp.viscosity.z);
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
