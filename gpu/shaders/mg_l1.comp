#version 450
// The smoother of level mode, a node each: l1 block Jacobi's inverse (mg_cycle.glsl's mg_l1_node). The same
// sweeps before and after the coarse correction keep the V-cycle symmetric (a CG preconditioner).
#include "step_layout.glsl"
#include "mg_layout.glsl"
#include "mg_cycle.glsl"
void main() {
  uvec4 L = level_of(pc.mode);
  if (gl_GlobalInvocationID.x < L.y) mg_l1_node(pc.mode, L.x + gl_GlobalInvocationID.x);
}
