#version 450
// Partial sums of d.q for alpha.
#include "step_layout.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 mine = vec4(0.0);
  if (i < pc.n && sc[kDone] == 0.0) mine.x = dot(vec[kD * pc.n + i].xyz, vec[kQ * pc.n + i].xyz);
  group_sums(mine);
}
