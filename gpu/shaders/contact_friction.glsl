// A vertex resting on a collider in the solve (sim/contact_filter.h, as sim/multigrid_solver.cpp keeps it):
// Coulomb friction as an implicit tangential damping, W_ii += h c (I - n n^T), b -= h c v_t; the block-Jacobi
// preconditioner is the inverse of W_ii with a stiff normal block (100 tr W_ii n n^T, mg's), filtered both
// sides, so that the preconditioned residual has no normal component either. Without a contact (n = 0,
// h c = 0) W_ii, b and the plain inverse are unchanged.
mat3 contact_preconditioner(uint i, mat3 W, inout vec4 w0, inout vec4 w1, inout vec3 b) {
  vec3 nrm = con0(i).xyz;
  float hc = con1(i).w;
  if (nrm == vec3(0.0)) return inverse(W);  // symmetric: its rows are its columns
  mat3 T = hc * (mat3(1.0) - outerProduct(nrm, nrm));
  W += T;
  w0 += vec4(T[0][0], T[0][1], T[0][2], T[1][1]);
  w1 += vec4(T[1][2], T[2][2], 0.0, 0.0);
  b -= hc * con1(i).xyz;
  mat3 S = mat3(1.0) - outerProduct(nrm, nrm);
  return S * inverse(W + 100.0 * (W[0][0] + W[1][1] + W[2][2]) * outerProduct(nrm, nrm)) * S;
}
