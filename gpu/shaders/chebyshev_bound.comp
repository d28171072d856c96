#version 450
// Once a tick, after assemble.comp: the ends of the interval that chebyshev.comp's weights are made for
// (cheby_layout.glsl), from the block-Jacobi preconditioner P (pre: W_ii's inverse, filtered at a resting contact).
// - The upper end is a bound, because an eigenvalue of P W above lo + hi makes the iteration diverge. Two, the
//   lower taken: (1) Gershgorin on P^1/2 W P^1/2, whose diagonal blocks are I and whose off-diagonal block (i, j)
//   has a spectral norm of at most its Frobenius norm, sqrt(tr(P_i B P_j B)) for the link's B = h^2 J_l + h cd I
//   (symmetric: no square root of P): every eigenvalue is at most 1 + max_i s_i. (2) The links': W_ii is M plus
//   friction and air plus the links' B, so x^T W x = x^T (W_ii - sum B) x + sum_l (x_i - x_j)^T B_l (x_i - x_j),
//   and (x_i - x_j)^T B (x_i - x_j) <= 2 x_i^T B+ x_i + 2 x_j^T B+ x_j with B+ = B + c I, c = max(0, -lambda_min(B))
//   (a triangle membrane's pair block can be indefinite): W <= E, E_i = W_ii + sum_l (B_l + 2 c_l I), so every
//   eigenvalue is at most max_i lambda_max(P_i E_i) (2 less a little for springs alone, where (1) gives 3-4).
//   Maxima as integer maxima of non-negative floats' bits: one result in any order.
// - The lower end is an estimate: an eigenvalue under it still converges (the Chebyshev polynomial is under 1
//   in magnitude up to 1), only more slowly. The Rayleigh quotient e^T W e / e^T P^-1 e of a uniform
//   translation e over the free vertices: the mass over the diagonal blocks, plus the links to held vertices;
//   per workgroup here (traces: the three axes together), summed by chebyshev_reduce.comp. The mass alone
//   (W >= M: min m_i / lambda_max(W_ii)) bounds it from below, 130 times lower on a held sheet: too
//   slow. chebyshev_reduce.comp scales it (GpuStepOptions::chebyshev_lo_scale: measured, docs/gpu.md).
#include "step_layout.glsl"
#include "cheby_layout.glsl"
layout(std430, binding = 15) buffer ScalarBits { uint sc_bits[]; };  // the step's Scalars, as bits
mat3 pre_mat(uint i) { return mat3(pre[3 * i].xyz, pre[3 * i + 1].xyz, pre[3 * i + 2].xyz); }  // symmetric
mat3 sym(vec4 a, vec4 b) { return mat3(a.x, a.y, a.z, a.y, a.w, b.x, a.z, b.x, b.y); }
// The largest and smallest eigenvalues of a 3x3 matrix similar to a symmetric one (real eigenvalues), by the
// trigonometric solution of its characteristic cubic (its invariants: no symmetric form needed).
vec2 eig_max_min(mat3 A) {
  float q = (A[0][0] + A[1][1] + A[2][2]) / 3.0;
  mat3 C = A - q * mat3(1.0);
  mat3 C2 = C * C;
  float p = sqrt(max(C2[0][0] + C2[1][1] + C2[2][2], 0.0) / 6.0);
  if (!(p > 1e-20 * abs(q)) || p == 0.0) return vec2(q, q);
  float r = clamp(determinant(C / p) / 2.0, -1.0, 1.0);
  float phi = acos(r) / 3.0;
  return vec2(q + 2.0 * p * cos(phi), q + 2.0 * p * cos(phi + 2.0943951));
}
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 mine = vec4(0.0);
  if (i < pc.n && kin[i].w == 0.0) {
    mat3 Pi = pre_mat(i);
    float h2 = pc.h * pc.h, s = 0.0;
    vec4 w0 = wd[2 * i], w1 = wd[2 * i + 1];
    float diag = w0.x + w0.w + w1.y, row = diag;  // tr W_ii; the translation's row: + tr W_ij over free j
    mat3 E = sym(w0, w1);
    for (uint k = csr_off[i]; k < csr_off[i + 1]; ++k) {
      int e = csr[k];
      uint l = uint(e >= 0 ? e : ~e);
      uint o = e >= 0 ? link[l].y : link[l].x;
      mat3 B = h2 * sym(link_j[2 * l], link_j[2 * l + 1]) + pc.h * pc.cd * mat3(1.0);
      mat3 M = Pi * B * pre_mat(o) * B;
      s += sqrt(max(M[0][0] + M[1][1] + M[2][2], 0.0));
      if (kin[o].w == 0.0) row -= B[0][0] + B[1][1] + B[2][2];
      E += B + 2.0 * max(-eig_max_min(B).y, 0.0) * mat3(1.0);
    }
    float b = eig_max_min(Pi * E).x - 1.0;
    b = b < 1e30 ? max(b, 0.0) : 1e30;
    // Not finite (a state gone bad): the widest interval the weights take, not NaN weights everywhere.
    s = s < 1e30 ? s : 1e30;
    atomicMax(sc_bits[kChebyS], floatBitsToUint(s));
    atomicMax(sc_bits[kChebyE], floatBitsToUint(b));
    mine = vec4(row, diag, 0.0, 0.0);
  }
  group_sums(mine);  // uniform: every invocation reaches its barriers
}
