#version 450
// Per hinge: the weft/warp model's anisotropic bending (sim/weft_warp_forces.cpp's add_weave_hinges): the
// signed dihedral angle and its gradient (hinge_angle, Bridson et al. 2003), the moment -k (theta - theta_p)
// on each corner (theta_p the plastic rest angle), and per corner pair (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
// the Gauss-Newton block -k g_i g_j^T symmetrised, with its viscosity term h J (v_j - v_i). A collapsed
// hinge writes nothing. Gathered in hinge order after the triangles (weave_links.comp, assemble.comp); each
// corner's diagonal k g_i g_i^T comes out of its pair blocks' sum (the gradients sum to zero).
#include "step_layout.glsl"
#include "force_layout.glsl"
void main() {
  uint e = gl_GlobalInvocationID.x;
  if (e >= fp.nhinge) return;
  uvec4 hv = hinge[e];
  vec3 p[4] = vec3[4](x[hv.x].xyz, x[hv.y].xyz, x[hv.z].xyz, x[hv.w].xyz);
  uint fo = 3 * fp.ntri + 4 * e, bo = 3 * fp.ntri + 6 * e;
  vec3 ed = p[1] - p[0];
  float len = length(ed);
  vec3 nA = cross(ed, p[2] - p[0]), nB = cross(p[3] - p[0], ed);
  float a2 = dot(nA, nA), b2 = dot(nB, nB);
  if (!(len > 1e-12 && a2 > 1e-24 && b2 > 1e-24)) {
    for (int q = 0; q < 4; ++q) elem_force[fo + q] = vec4(0.0);
    for (int q = 0; q < 6; ++q) put_block(bo + q, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    return;
  }
  vec3 eh = ed / len;
  float theta = atan(-dot(cross(nA, nB), eh), dot(nA, nB));
  vec3 qa = nA / a2, qb = nB / b2;
  vec3 g[4];
  g[2] = len * qa;
  g[3] = len * qb;
  g[0] = dot(p[2] - p[1], eh) * qa + dot(p[3] - p[1], eh) * qb;
  g[1] = -dot(p[2] - p[0], eh) * qa - dot(p[3] - p[0], eh) * qb;
  float k = hinge_k[e];
  float moment = -k * (theta - plastic[e]);
  vec3 f[4];
  for (int q = 0; q < 4; ++q) f[q] = moment * g[q];
  vec3 pv[4] = vec3[4](v[hv.x].xyz, v[hv.y].xyz, v[hv.z].xyz, v[hv.w].xyz);
  const int pair[12] = int[12](0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3);
  for (int q = 0; q < 6; ++q) {
    int i = pair[2 * q], j = pair[2 * q + 1];
    vec3 gi = g[i], gj = g[j];
    vec4 a = vec4(-k * gi.x * gj.x, -0.5 * k * (gi.x * gj.y + gi.y * gj.x), -0.5 * k * (gi.x * gj.z + gi.z * gj.x),
                  -k * gi.y * gj.y);
    vec4 b = vec4(-0.5 * k * (gi.y * gj.z + gi.z * gj.y), -k * gi.z * gj.z, 0.0, 0.0);
    vec3 w = pc.h * sym_mul(a, b, pv[j] - pv[i]);
    f[i] += w;
    f[j] -= w;
    put_block(bo + q, a.x, a.y, a.z, a.w, b.x, b.y);
  }
  for (int q = 0; q < 4; ++q) elem_force[fo + q] = vec4(f[q], 0.0);
}
