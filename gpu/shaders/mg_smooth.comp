#version 450
// One l1-Jacobi sweep on level mode: x[dst] = x[src] + M^-1 (b - A x[src]); src 0: from zero, x = M^-1 b.
// Zero on fixed nodes.
#include "step_layout.glsl"
#include "mg_layout.glsl"
void main() {
  uvec4 L = level_of(pc.mode);
  if (gl_GlobalInvocationID.x >= L.y || sc[kDone] != 0.0) return;
  uint g = L.x + gl_GlobalInvocationID.x;
  float omega = L.w == 0u ? 1.0 : kMgOmega;  // a level without links: M = A, one sweep from zero solves it
  vec3 x = vec3(0.0);
  if (!mg_fixed(g)) {
    vec3 b = mg_rhs(pc.mode, g);
    if (pc.src == 0u) {
      x = omega * mg_inv_mul(g, b);
    } else {
      vec3 xs = mg_x(pc.src, g);
      vec3 r = b - sym_mul(md[2 * g], md[2 * g + 1], xs) - mg_off_product(pc.mode, g, pc.src);
      x = xs + omega * mg_inv_mul(g, r);
    }
  }
  mv[pc.dst * mg_total() + g] = vec4(x, 0.0);
}
