// The multigrid preconditioner's set (gpu/gpu_multigrid.h), set 1 of its kernels' layout beside the step's
// set 0: the aggregation hierarchy of sim/aggregation_hierarchy.h, built once on the CPU, and the levels'
// matrices, re-made from the step's blocks every tick. Nodes of every level are numbered together (level 0:
// the vertices, then level 1's aggregates, ...: "global" g below), and so are the coarse levels' links.
// mg_coarse*.comp make the buffers they write coherent (MG_COHERENT_MATRICES: the levels' blocks;
// MG_COHERENT_VECTORS: the vectors): one workgroup reads what its other invocations wrote. The others stay
// plain, cached loads.
#ifdef MG_COHERENT_MATRICES
#define MG_COHERENT_M coherent
#else
#define MG_COHERENT_M
#endif
#ifdef MG_COHERENT_VECTORS
#define MG_COHERENT_V coherent
#else
#define MG_COHERENT_V
#endif
layout(std430, set = 1, binding = 0) readonly buffer MgLevels { uvec4 lv[]; };  // [0]: levels, nodes N, links C, sweeps; [1 + l]: first node, nodes, first link, links
layout(std430, set = 1, binding = 1) MG_COHERENT_M buffer MgDiag { vec4 md[]; };       // A_gg: xx xy xz yy | yz zz, fixed (1), 0 (2 N)
layout(std430, set = 1, binding = 2) MG_COHERENT_M buffer MgInv { vec4 mi[]; };        // the l1-Jacobi smoother's inverse, three rows (3 N); 0 when fixed
layout(std430, set = 1, binding = 3) MG_COHERENT_M buffer MgOff { vec4 mo[]; };        // a coarse link's block A_c: xx xy xz yy | yz zz (2 C)
layout(std430, set = 1, binding = 4) readonly buffer MgEnds { uvec2 mends[]; };   // a coarse link's two nodes (C)
layout(std430, set = 1, binding = 5) readonly buffer MgAdjOff { uint madj_off[]; };  // node g's coarse links: [off[g], off[g + 1]) (N + 1; empty on level 0)
layout(std430, set = 1, binding = 6) readonly buffer MgAdj { int madj[]; };       // c (first end) or ~c, in link order
layout(std430, set = 1, binding = 7) readonly buffer MgAgg { uint magg[]; };      // the aggregate (global) of each node above the last level (N)
layout(std430, set = 1, binding = 8) readonly buffer GalNodeOff { uint gn_off[]; };  // aggregate g's Galerkin terms: [off[g], off[g + 1]) (N + 1)
layout(std430, set = 1, binding = 9) readonly buffer GalNode { int gn[]; };  // a member node (>= 0), then ~e per link e inside the aggregate
layout(std430, set = 1, binding = 10) readonly buffer GalLinkOff { uint gal_link_off[]; };  // coarse link c's finer links: [off[c], off[c + 1]) (C + 1)
layout(std430, set = 1, binding = 11) readonly buffer GalLink { uint gal_link[]; };  // links of the finer level (level 0: the model's links), in link order
layout(std430, set = 1, binding = 12) MG_COHERENT_V buffer MgVec { vec4 mv[]; };  // per node: rhs, x (two, for the Jacobi sweeps' ping-pong), residual (4 N)

// Push (step_layout.glsl) as the multigrid kernels read it: mode = the level (mg_smooth: plus 256 times the slot
// of the coarser level's x to add first, the prolongation; 0: none); src, dst = vector slots.
// The sweeps' weight: M^-1 A's spectrum is in (0, 1] (l1: A <= M), so any weight under 2 converges; 4/3
// damps its upper part better than 1 (the 1 k bench grid, one sweep: 41 iterations against 48; docs/gpu.md).
const float kMgOmega = 1.33;
const uint kMgRhs = 0u, kMgX0 = 1u, kMgX1 = 2u, kMgRes = 3u;
uint mg_total() { return lv[0].y; }
uvec4 level_of(uint l) { return lv[1u + l]; }
bool mg_fixed(uint g) { return md[2u * g + 1u].z != 0.0; }
// Level 0's right-hand side is CG's residual (kR), the coarse levels' their restricted residual.
vec3 mg_rhs(uint l, uint g) { return l == 0u ? vec[kR * pc.n + g].xyz : mv[kMgRhs * mg_total() + g].xyz; }
vec3 mg_x(uint slot, uint g) { return mv[slot * mg_total() + g].xyz; }
// The off-diagonal block of level l's link e: -(h^2 J_e + h cd I) on level 0 (spmv.comp's), the Galerkin sum above.
void mg_block(uint l, uint e, out vec4 a0, out vec4 a1) {
  if (l == 0u) {
    float h2 = pc.h * pc.h, s = pc.h * pc.cd;
    a0 = -h2 * link_j[2u * e] - vec4(s, 0.0, 0.0, s);
    a1 = -h2 * link_j[2u * e + 1u] - vec4(0.0, s, 0.0, 0.0);
  } else {
    a0 = mo[2u * e];
    a1 = mo[2u * e + 1u];
  }
}
uvec2 mg_adjacency(uint l, uint g) { return l == 0u ? uvec2(csr_off[g], csr_off[g + 1u]) : uvec2(madj_off[g], madj_off[g + 1u]); }
// Entry k of level l's adjacency: its link, and the node at the other end.
uint mg_neighbour(uint l, uint k, out uint other) {
  int e = l == 0u ? csr[k] : madj[k];
  uint c = uint(e >= 0 ? e : ~e);
  uvec2 ends = l == 0u ? link[c] : mends[c];
  other = e >= 0 ? ends.y : ends.x;
  return c;
}
uvec2 mg_ends(uint l, uint e) { return l == 0u ? link[e] : mends[e]; }
vec3 mg_inv_mul(uint g, vec3 p) { return vec3(dot(mi[3u * g].xyz, p), dot(mi[3u * g + 1u].xyz, p), dot(mi[3u * g + 2u].xyz, p)); }
