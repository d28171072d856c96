#version 450
// One l1-Jacobi sweep on level mode & 255: x[dst] = x + M^-1 (b - A x), x = x[src] (0: from zero) plus, when
// mode >> 8 is a slot, the coarser level's correction from it (the prolongation, fused into this sweep).
#include "step_layout.glsl"
#include "mg_layout.glsl"
#include "mg_cycle.glsl"
void main() {
  uint l = pc.mode & 255u;
  uvec4 L = level_of(l);
  if (gl_GlobalInvocationID.x >= L.y || sc[kDone] != 0.0) return;
  uint g = L.x + gl_GlobalInvocationID.x;
  mv[pc.dst * mg_total() + g] = vec4(mg_sweep(l, g, pc.src, pc.mode >> 8), 0.0);
}
