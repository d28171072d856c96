#version 450
// P^T: level mode's (>= 1) right-hand side, each aggregate the sum of its free members' residuals one level
// up, in member order, as mg_residual.comp stored them (a fixed member's is zero).
#include "step_layout.glsl"
#include "mg_layout.glsl"
void main() {
  uvec4 L = level_of(pc.mode);
  if (gl_GlobalInvocationID.x >= L.y || sc[kDone] != 0.0) return;
  uint g = L.x + gl_GlobalInvocationID.x;
  vec3 b = vec3(0.0);
  for (uint k = gn_off[g]; k < gn_off[g + 1]; ++k) {
    int item = gn[k];
    if (item < 0) break;  // the members come first
    b += mv[kMgRes * mg_total() + uint(item)].xyz;
  }
  mv[kMgRhs * mg_total() + g] = vec4(b, 0.0);
}
