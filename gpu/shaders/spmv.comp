#version 450
// vec[dst] = W vec[src], W_ij = -(h^2 J_l + h cd I) per link l = (i, j), gathered in adjacency order;
// zero on kinematic vertices, and without the normal component on a resting contact (the filter:
// constrained directions carry no residual).
#include "step_layout.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n || sc[kDone] != 0.0) return;
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
  vec[pc.dst * pc.n + i] = vec4(kin[i].w != 0.0 ? vec3(0.0) : contact_project(i, q), 0.0);
}
