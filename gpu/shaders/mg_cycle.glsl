// The multigrid's work per node, shared by the per-level kernels (mg_*.comp, a dispatch each) and the one
// workgroup that runs the coarse levels whole (mg_coarse*.comp): the same arithmetic in the same order, so
// either way gives the same bits. Include after step_layout.glsl and mg_layout.glsl.

// P^T A P's off-diagonal block of level l's coarse link c (l >= 1): the finer links it gathers, in link order,
// those with a fixed end left out (sim/multigrid_preconditioner.cpp's assemble).
void mg_galerkin_link(uint l, uint c) {
  uint f = l - 1u;
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

// P^T A P's diagonal block of level l's node g (l >= 1): its free members' diagonal blocks and A_ij + A_ji of
// each link inside it with both ends free; fixed when all its members are.
void mg_galerkin_node(uint l, uint g) {
  uint f = l - 1u;
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

// The l1-Jacobi smoother's inverse at node g of level l (Baker, Falgout, Kolev & Yang 2011): M = A_gg +
// diag(the absolute row sums of the free off-diagonal blocks). A <= M for any symmetric positive definite A,
// so the sweep converges without a damping factor to tune or an eigenvalue to estimate.
void mg_l1_node(uint l, uint g) {
  if (mg_fixed(g)) {
    mi[3 * g] = mi[3 * g + 1] = mi[3 * g + 2] = vec4(0.0);
    return;
  }
  vec3 rows = vec3(0.0);
  uvec2 r = mg_adjacency(l, g);
  for (uint k = r.x; k < r.y; ++k) {
    uint o;
    uint e = mg_neighbour(l, k, o);
    if (mg_fixed(o)) continue;
    vec4 a0, a1;
    mg_block(l, e, a0, a1);
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

// Node g's x as a sweep reads it: x[slot], plus its aggregate's correction from the coarser level's x[coarse]
// when coarse != 0 (the prolongation, made on the fly by the first sweep after it rather than stored by a
// dispatch of its own). A fixed node's is never read.
vec3 mg_x_in(uint g, uint slot, uint coarse) {
  vec3 x = mg_x(slot, g);
  if (coarse != 0u) x += mg_x(coarse, magg[g]);
  return x;
}

// b - A x at node g of level l, x read as mg_x_in reads it; zero on fixed nodes.
vec3 mg_residual(uint l, uint g, uint slot, uint coarse) {
  if (mg_fixed(g)) return vec3(0.0);
  vec3 q = vec3(0.0);
  uvec2 r = mg_adjacency(l, g);
  for (uint k = r.x; k < r.y; ++k) {
    uint o;
    uint e = mg_neighbour(l, k, o);
    if (mg_fixed(o)) continue;
    vec4 a0, a1;
    mg_block(l, e, a0, a1);
    q += sym_mul(a0, a1, mg_x_in(o, slot, coarse));
  }
  return mg_rhs(l, g) - sym_mul(md[2 * g], md[2 * g + 1], mg_x_in(g, slot, coarse)) - q;
}

// One l1-Jacobi sweep at node g of level l: x + M^-1 (b - A x) from x[src] (and the prolongation from
// x[coarse]); src 0: from zero, x = M^-1 b. Weighted by kMgOmega but on a level without links (M = A: one
// sweep from zero solves it). Zero on fixed nodes.
vec3 mg_sweep(uint l, uint g, uint src, uint coarse) {
  if (mg_fixed(g)) return vec3(0.0);
  float omega = level_of(l).w == 0u ? 1.0 : kMgOmega;
  if (src == 0u) return omega * mg_inv_mul(g, mg_rhs(l, g));
  return mg_x_in(g, src, coarse) + omega * mg_inv_mul(g, mg_residual(l, g, src, coarse));
}

// P^T: node g of level l (>= 1) gets the sum of its free members' residuals one level up at x[slot], in
// member order, each made here (mg_coarse.comp; the fine levels store theirs first, mg_residual.comp, a node
// an invocation: made an aggregate an invocation, they cost an H100 more than the dispatch they save).
vec3 mg_restrict(uint l, uint g, uint slot) {
  vec3 b = vec3(0.0);
  for (uint k = gn_off[g]; k < gn_off[g + 1]; ++k) {
    int item = gn[k];
    if (item < 0) break;  // the members come first
    b += mg_residual(l - 1u, uint(item), slot, 0u);  // a fixed member's is zero
  }
  return b;
}

// How many sweeps each way level l gets (GpuMultigrid::sweeps_of): one on a level without links (exact),
// kMgSmallSweeps on the small levels, lv[0].w on the others.
const uint kMgSmallLevel = 48u, kMgSmallSweeps = 4u;
uint mg_sweeps_of(uint l) {
  uvec4 L = level_of(l);
  if (l > 0u && L.w == 0u) return 1u;
  return L.y <= kMgSmallLevel ? kMgSmallSweeps : lv[0].w;
}
