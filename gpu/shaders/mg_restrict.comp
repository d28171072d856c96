#version 450
// P^T: level mode's (>= 1) right-hand side, each aggregate the sum of its free members' residuals one level
// up at x[src], in member order (the residual made here: no dispatch of its own).
#include "step_layout.glsl"
#include "mg_layout.glsl"
#include "mg_cycle.glsl"
void main() {
  uvec4 L = level_of(pc.mode);
  if (gl_GlobalInvocationID.x >= L.y || sc[kDone] != 0.0) return;
  uint g = L.x + gl_GlobalInvocationID.x;
  mv[kMgRhs * mg_total() + g] = vec4(mg_restrict(pc.mode, g, pc.src), 0.0);
}
