#version 450
// P^T A P's diagonal blocks on level mode (>= 1): an aggregate sums its free members' diagonal blocks and
// A_ij + A_ji of each link inside it with both ends free; it is fixed when all its members are.
#include "step_layout.glsl"
#include "mg_layout.glsl"
void main() {
  uvec4 L = level_of(pc.mode);
  if (gl_GlobalInvocationID.x >= L.y) return;
  uint g = L.x + gl_GlobalInvocationID.x, f = pc.mode - 1u;
  vec4 s0 = vec4(0.0), s1 = vec4(0.0);
  float fixed_node = 1.0;
  for (uint k = gn_off[g]; k < gn_off[g + 1]; ++k) {
    int item = gn[k];
    if (item >= 0) {
      uint m = uint(item);
      if (mg_fixed(m)) continue;
      s0 += md[2 * m];
      s1 += vec4(md[2 * m + 1].xy, 0.0, 0.0);
      fixed_node = 0.0;
    } else {
      uint e = uint(~item);
      uvec2 ends = mg_ends(f, e);
      if (mg_fixed(ends.x) || mg_fixed(ends.y)) continue;
      vec4 a0, a1;
      mg_block(f, e, a0, a1);
      s0 += 2.0 * a0;
      s1 += 2.0 * a1;
    }
  }
  md[2 * g] = s0;
  md[2 * g + 1] = vec4(s1.xy, fixed_node, 0.0);
}
