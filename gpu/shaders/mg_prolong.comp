#version 450
// P: level mode's free nodes add their aggregate's correction (x[src], one level down) to x[dst].
#include "step_layout.glsl"
#include "mg_layout.glsl"
void main() {
  uvec4 L = level_of(pc.mode);
  if (gl_GlobalInvocationID.x >= L.y || sc[kDone] != 0.0) return;
  uint g = L.x + gl_GlobalInvocationID.x;
  if (mg_fixed(g)) return;
  mv[pc.dst * mg_total() + g].xyz += mg_x(pc.src, magg[g]);
}
