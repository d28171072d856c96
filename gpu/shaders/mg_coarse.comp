#version 450
// The V-cycle below the fine levels in one workgroup (one dispatch instead of 2 s + 2 a level, s sweeps each
// way): from level mode (>= 1, its right-hand side restricted by the dispatch before) to the last and back,
// each sweep and restriction a pass of the workgroup's invocations over the level's nodes with a barrier
// after it, the Jacobi sweeps' x slots alternating as GpuMultigrid::record_apply alternates them (it mirrors
// this order to know which slot holds level mode's x at the end). The same arithmetic as the per-level
// kernels (mg_cycle.glsl), in the same order.
#define MG_COHERENT_VECTORS
#include "step_layout.glsl"
#include "mg_layout.glsl"
#include "mg_cycle.glsl"
void sync() {
  memoryBarrierBuffer();
  barrier();
}
// count sweeps on level l from x[at] (from zero when first; the first after the coarse correction adds it
// from slot coarse); returns the slot holding the result.
uint sweeps(uint l, uint count, uint at, bool first, uint coarse) {
  uvec4 L = level_of(l);
  uint t = gl_LocalInvocationID.x;
  for (uint s = 0u; s < count; ++s) {
    uint src = first && s == 0u ? 0u : at, dst = src == kMgX0 ? kMgX1 : kMgX0, c = s == 0u ? coarse : 0u;
    for (uint k = t; k < L.y; k += gl_WorkGroupSize.x) mv[dst * mg_total() + L.x + k] = vec4(mg_sweep(l, L.x + k, src, c), 0.0);
    sync();
    at = dst;
  }
  return at;
}
void main() {
  if (sc[kDone] != 0.0) return;  // uniform: every invocation reads the same flag
  uint t = gl_LocalInvocationID.x, last = lv[0].x - 1u;
  uint at[32];  // the slot holding each level's x (GpuMultigrid allows 32 levels)
  for (uint l = pc.mode; l < last; ++l) {
    at[l] = sweeps(l, mg_sweeps_of(l), kMgX0, true, 0u);
    uvec4 K = level_of(l + 1u);
    for (uint k = t; k < K.y; k += gl_WorkGroupSize.x) mv[kMgRhs * mg_total() + K.x + k] = vec4(mg_restrict(l + 1u, K.x + k, at[l]), 0.0);
    sync();
  }
  at[last] = sweeps(last, mg_sweeps_of(last), kMgX0, true, 0u);
  for (uint l = last; l-- > pc.mode;) at[l] = sweeps(l, mg_sweeps_of(l), at[l], false, at[l + 1u]);
}
