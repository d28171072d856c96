#version 450
// vec[dst] = W vec[src], W_ij = -(h^2 J_l + h cd I) per link l = (i, j), gathered in adjacency order;
// zero on kinematic vertices, and without the normal component on a resting contact (the filter:
// constrained directions carry no residual). Mode 1 (src kD, dst kQ, no sewn pairs to project q first): also
// the partial sums of d.q for alpha (cg_dot_dq.comp's, fused: one dispatch less an iteration).
#include "step_layout.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 mine = vec4(0.0);
  if (i < pc.n && sc[kDone] == 0.0) {
    vec3 p = vec[pc.src * pc.n + i].xyz;
    vec3 q = sym_mul(wd[2 * i], wd[2 * i + 1], p);
    float h2 = pc.h * pc.h;
    for (uint k = csr_off[i]; k < csr_off[i + 1]; ++k) {
      int e = csr[k];
      uint l = uint(e >= 0 ? e : ~e);
      uint o = e >= 0 ? link[l].y : link[l].x;
      vec3 po = vec[pc.src * pc.n + o].xyz;
      q -= h2 * sym_mul(link_j[2 * l], link_j[2 * l + 1], po) + pc.h * pc.cd * po;
    }
    q = kin[i].w != 0.0 ? vec3(0.0) : contact_project(i, q);
    vec[pc.dst * pc.n + i] = vec4(q, 0.0);
    mine.x = dot(p, q);
  }
  if (pc.mode == 1u) group_sums(mine);  // uniform: every invocation or none reaches its barriers
}
