#version 450
// Per vertex, gathering its links in the sim's adjacency order (no atomics): force = m g + the links';
// W_ii = M + h^2 sum J + h n_i cd I (Kang & Cho Eq. 18, 27); its inverse (block-Jacobi preconditioner);
// b = h f and the start dv (last tick's, or W_ii^-1 b), or the imposed dv of a kinematic vertex; a vertex
// resting on a collider gets its friction and its filter (contact_friction.glsl).
// Then, as evaluate_forces adds them after the links: the weft/warp corners' forces (their blocks are in
// the links' by then: weave_links.comp) and air (its drag coefficient c adds h c I to W_ii; force.w = c).
#include "step_layout.glsl"
#include "force_layout.glsl"
#include "contact_friction.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  float m = vdata[i].x;
  vec3 f = m * pc.gravity.xyz;
  vec4 s0 = vec4(0.0), s1 = vec4(0.0);
  for (uint k = csr_off[i]; k < csr_off[i + 1]; ++k) {
    int e = csr[k];
    uint l = uint(e >= 0 ? e : ~e);
    f += e >= 0 ? link_f[l].xyz : -link_f[l].xyz;
    s0 += link_j[2 * l];
    s1 += link_j[2 * l + 1];
  }
  if ((fp.flags & kWeftWarp) != 0u)
    for (uint k = vg_off[i]; k < vg_off[i + 1]; ++k) f += elem_force[vg[k]].xyz;
  float c_air = 0.0;
  if ((fp.flags & kAir) != 0u) {
    f += air[i].xyz;
    c_air = air[i].w;
  }
  float h2 = pc.h * pc.h;
  float dg = m + pc.h * (vdata[i].y * pc.cd + c_air);
  vec4 w0 = h2 * s0 + vec4(dg, 0.0, 0.0, dg);
  vec4 w1 = h2 * s1 + vec4(0.0, dg, 0.0, 0.0);
  wd[2 * i] = w0;
  wd[2 * i + 1] = w1;
  force[i] = vec4(f, c_air);
  mat3 W = mat3(w0.x, w0.y, w0.z, w0.y, w0.w, w1.x, w0.z, w1.x, w1.y);
  if (kin[i].w != 0.0) {
    pre[3 * i] = pre[3 * i + 1] = pre[3 * i + 2] = vec4(0.0);
    vec[kDv * pc.n + i] = vec4(kin[i].xyz - v[i].xyz, 0.0);
    vec[kB * pc.n + i] = vec4(0.0);
  } else {
    vec3 b = pc.h * f;
    // A resting contact (contact_friction.glsl): its friction on W_ii and b, the preconditioner filtered.
    vec3 nrm = con0(i).xyz;
    mat3 P = contact_preconditioner(i, W, w0, w1, b);
    wd[2 * i] = w0;
    wd[2 * i + 1] = w1;
    pre[3 * i] = vec4(P[0], 0.0); pre[3 * i + 1] = vec4(P[1], 0.0); pre[3 * i + 2] = vec4(P[2], 0.0);
    // warm start: last tick's dv (zero at first), as mg_warm_start; else the block-Jacobi guess; a contact's
    // normal component is the one it imposes
    vec3 dv = pc.mode == 0 ? pre_mul(i, b) : vec[kDv * pc.n + i].xyz;
    vec[kDv * pc.n + i] = vec4(dv + (con0(i).w - dot(dv, nrm)) * nrm, 0.0);
    vec[kB * pc.n + i] = vec4(contact_project(i, b), 0.0);
  }
}
