#version 450
// The coarse levels' matrices in one workgroup (one dispatch instead of three a level): from level mode (>= 1,
// the first of at most GpuMultigrid's coarse_nodes nodes) to the last, each level's Galerkin links, then its
// nodes, then its smoother, with the workgroup's barriers between, as mg_galerkin_*.comp and mg_l1.comp do
// them a dispatch each.
#define MG_COHERENT_MATRICES
#include "step_layout.glsl"
#include "mg_layout.glsl"
#include "mg_cycle.glsl"
void sync() {
  memoryBarrierBuffer();
  barrier();
}
void main() {
  uint t = gl_LocalInvocationID.x, levels = lv[0].x;
  for (uint l = pc.mode; l < levels; ++l) {
    uvec4 L = level_of(l);
    for (uint k = t; k < L.w; k += gl_WorkGroupSize.x) mg_galerkin_link(l, L.z + k);
    sync();
    for (uint k = t; k < L.y; k += gl_WorkGroupSize.x) mg_galerkin_node(l, L.x + k);
    sync();
    for (uint k = t; k < L.y; k += gl_WorkGroupSize.x) mg_l1_node(l, L.x + k);
    sync();
  }
}
