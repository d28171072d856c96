#version 450
// P^T A P's diagonal blocks on level mode (>= 1), a node each (mg_cycle.glsl's mg_galerkin_node).
#include "step_layout.glsl"
#include "mg_layout.glsl"
#include "mg_cycle.glsl"
void main() {
  uvec4 L = level_of(pc.mode);
  if (gl_GlobalInvocationID.x < L.y) mg_galerkin_node(pc.mode, L.x + gl_GlobalInvocationID.x);
}
