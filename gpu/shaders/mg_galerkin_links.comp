#version 450
// P^T A P's off-diagonal blocks on level mode (>= 1), a coarse link each (mg_cycle.glsl's mg_galerkin_link).
#include "step_layout.glsl"
#include "mg_layout.glsl"
#include "mg_cycle.glsl"
void main() {
  uvec4 L = level_of(pc.mode);
  if (gl_GlobalInvocationID.x < L.w) mg_galerkin_link(pc.mode, L.z + gl_GlobalInvocationID.x);
}
