#version 450
// d = s + beta d.
#include "step_layout.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n || sc[kDone] != 0.0) return;
  vec[kD * pc.n + i].xyz = vec[kS * pc.n + i].xyz + sc[kBeta] * vec[kD * pc.n + i].xyz;
}
