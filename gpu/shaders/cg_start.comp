#version 450
// r = b - W dv (filtered), d = P r; partial sums of r.d, b.b and r.r. Mode 1: r only (the multigrid
// preconditions r next, and mg_dots.comp makes d and the sums).
#include "step_layout.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 mine = vec4(0.0);
  if (i < pc.n) {
    vec3 r = kin[i].w != 0.0 ? vec3(0.0) : vec[kB * pc.n + i].xyz - vec[kQ * pc.n + i].xyz;
    vec3 d = pre_mul(i, r);
    vec3 b = vec[kB * pc.n + i].xyz;
    vec[kR * pc.n + i] = vec4(r, 0.0);
    if (pc.mode == 0u) {
      vec[kD * pc.n + i] = vec4(d, 0.0);
      mine = vec4(dot(r, d), dot(b, b), dot(r, r), 0.0);
    }
  }
  if (pc.mode == 1u) return;  // uniform: no invocation reaches group_sums's barriers
  group_sums(mine);
}
