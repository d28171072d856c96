#version 450
// Level mode's residual b - A x[src] (zero on fixed nodes) into the residual slot, a node each, for
// mg_restrict.comp's sums.
#include "step_layout.glsl"
#include "mg_layout.glsl"
#include "mg_cycle.glsl"
void main() {
  uvec4 L = level_of(pc.mode);
  if (gl_GlobalInvocationID.x >= L.y || sc[kDone] != 0.0) return;
  uint g = L.x + gl_GlobalInvocationID.x;
  mv[kMgRes * mg_total() + g] = vec4(mg_residual(pc.mode, g, pc.src, 0u), 0.0);
}
