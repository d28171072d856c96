#version 450
// Level mode's residual b - A x[src] (zero on fixed nodes), for the restriction.
#include "step_layout.glsl"
#include "mg_layout.glsl"
void main() {
  uvec4 L = level_of(pc.mode);
  if (gl_GlobalInvocationID.x >= L.y || sc[kDone] != 0.0) return;
  uint g = L.x + gl_GlobalInvocationID.x;
  vec3 r = vec3(0.0);
  if (!mg_fixed(g))
    r = mg_rhs(pc.mode, g) - sym_mul(md[2 * g], md[2 * g + 1], mg_x(pc.src, g)) - mg_off_product(pc.mode, g, pc.src);
  mv[kMgRes * mg_total() + g] = vec4(r, 0.0);
}
