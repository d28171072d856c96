#version 450
// P^T A P's off-diagonal blocks on level mode (>= 1): each coarse link sums the finer links it gathers, in
// link order, those with a fixed end left out (sim/multigrid_preconditioner.cpp's assemble).
#include "step_layout.glsl"
#include "mg_layout.glsl"
void main() {
  uvec4 L = level_of(pc.mode);
  if (gl_GlobalInvocationID.x >= L.w) return;
  uint c = L.z + gl_GlobalInvocationID.x, f = pc.mode - 1u;
  vec4 s0 = vec4(0.0), s1 = vec4(0.0);
  for (uint k = gal_link_off[c]; k < gal_link_off[c + 1]; ++k) {
    uint e = gal_link[k];
    uvec2 ends = mg_ends(f, e);
    if (mg_fixed(ends.x) || mg_fixed(ends.y)) continue;
    vec4 a0, a1;
    mg_block(f, e, a0, a1);
    s0 += a0;
    s1 += a1;
  }
  mo[2 * c] = s0;
  mo[2 * c + 1] = s1;
}
