#version 450
// dv += alpha d, r -= alpha q, s = P r; partial sums of r.s and r.r for beta and the residual. Mode 1: dv
// and r only (the multigrid preconditions r next, and mg_dots.comp makes s and the sums).
#include "step_layout.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 mine = vec4(0.0);
  if (i < pc.n && sc[kDone] == 0.0) {
    float alpha = sc[kAlpha];
    vec[kDv * pc.n + i].xyz += alpha * vec[kD * pc.n + i].xyz;
    vec3 r = vec[kR * pc.n + i].xyz - alpha * vec[kQ * pc.n + i].xyz;
    vec3 s = pre_mul(i, r);
    vec[kR * pc.n + i] = vec4(r, 0.0);
    if (pc.mode == 0u) {
      vec[kS * pc.n + i] = vec4(s, 0.0);
      mine = vec4(dot(r, s), dot(r, r), 0.0, 0.0);
    }
  }
  if (pc.mode == 1u) return;  // uniform: no invocation reaches group_sums's barriers
  group_sums(mine);
}
