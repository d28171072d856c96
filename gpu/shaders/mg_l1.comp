#version 450
// The smoother of level mode: l1 block Jacobi (Baker, Falgout, Kolev & Yang 2011), M = A_gg + diag(the
// absolute row sums of the free off-diagonal blocks). A <= M for any symmetric positive definite A, so the
// sweep x += M^-1 (b - A x) converges without a damping factor to tune or an eigenvalue to estimate, and
// the same sweeps before and after the coarse correction keep the V-cycle symmetric (a CG preconditioner).
#include "step_layout.glsl"
#include "mg_layout.glsl"
void main() {
  uvec4 L = level_of(pc.mode);
  if (gl_GlobalInvocationID.x >= L.y) return;
  uint g = L.x + gl_GlobalInvocationID.x;
  if (mg_fixed(g)) {
    mi[3 * g] = mi[3 * g + 1] = mi[3 * g + 2] = vec4(0.0);
    return;
  }
  vec3 rows = vec3(0.0);
  uvec2 r = mg_adjacency(pc.mode, g);
  for (uint k = r.x; k < r.y; ++k) {
    uint o;
    uint e = mg_neighbour(pc.mode, k, o);
    if (mg_fixed(o)) continue;
    vec4 a0, a1;
    mg_block(pc.mode, e, a0, a1);
    vec4 b0 = abs(a0), b1 = abs(a1);
    rows += vec3(b0.x + b0.y + b0.z, b0.y + b0.w + b1.x, b0.z + b1.x + b1.y);
  }
  vec4 d0 = md[2 * g], d1 = md[2 * g + 1];
  mat3 M = mat3(d0.x + rows.x, d0.y, d0.z, d0.y, d0.w + rows.y, d1.x, d0.z, d1.x, d1.y + rows.z);
  mat3 P = inverse(M);  // symmetric: its rows are its columns
  mi[3 * g] = vec4(P[0], 0.0);
  mi[3 * g + 1] = vec4(P[1], 0.0);
  mi[3 * g + 2] = vec4(P[2], 0.0);
}
