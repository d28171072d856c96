// The self-contact search's descriptor set (gpu/gpu_self_contacts.h): a spatial hash of the vertices (counting
// sort by bucket, then each bucket sorted by vertex index: integer atomics count and place, the sort makes
// the result independent of their order), then the narrow phase per triangle (vertex-triangle) and per edge
// (edge-edge), each writing its contacts into its own fixed slots in the order it visits cells and vertices.
// The edge-edge candidates come from an LBVH over the edges' boxes grown by their travel (Karras 2012),
// built each search: Morton codes of the edges' centres, a stable radix sort without atomics, the tree from
// the sorted codes, the boxes refit bottom-up (an integer visit counter per node; a union is exact, so the
// box does not depend on which child arrived last).
layout(std430, set = 0, binding = 0) readonly buffer SelfParams {
  uint n, ntri, nedge, bucket_mask;  // vertices, triangles, edges; buckets - 1 (a power of two)
  float cell, reach, thickness, cone_limit;  // cell size, thickness x detection_scale, thickness (m); the
                                            // curvature criterion's half-angle (rad; negative: none)
  uint cap_vt, cap_ee, max_span, ee_brute; // contact slots per triangle and per edge; cells per axis a query may
                                           // span; 1: the edge-edge candidates by brute force (a test's reference)
  uint chunks, pad0, pad1, pad2;  // the radix sort's chunks of kRadixChunk edges
} sp;
layout(std430, set = 0, binding = 1) readonly buffer SX { vec4 x[]; };      // positions now (n)
layout(std430, set = 0, binding = 2) readonly buffer SXP { vec4 xp[]; };    // positions at the step's start (n)
layout(std430, set = 0, binding = 3) readonly buffer SKin { uint kin[]; };  // 1: kinematic (n)
layout(std430, set = 0, binding = 4) readonly buffer STri { uvec4 tri[]; }; // corners (ntri)
layout(std430, set = 0, binding = 5) readonly buffer SEdge { uvec2 edge[]; };          // ends (nedge)
layout(std430, set = 0, binding = 6) readonly buffer SEdgeOff { uint edge_off[]; };    // n + 1: edges by end
layout(std430, set = 0, binding = 7) readonly buffer SEdgeList { uint edge_list[]; };  // edge indices (2 nedge)
layout(std430, set = 0, binding = 8) buffer SVCell { ivec4 vcell[]; };      // cell xyz, bucket (n)
layout(std430, set = 0, binding = 9) buffer SCount { uint bucket_count[]; };  // per bucket: count, then cursor
layout(std430, set = 0, binding = 10) buffer SStart { uint bucket_start[]; }; // buckets + 1
layout(std430, set = 0, binding = 11) buffer SSorted { uint sorted[]; };    // vertices by (bucket, index) (n)
layout(std430, set = 0, binding = 12) buffer STravel { float travel[]; };   // |x - xp|, -1: not finite (n)
layout(std430, set = 0, binding = 13) buffer SGlobal { uint global_u[]; };  // 0: max travel, 1: max edge
                                                                             // length (float bits), 2: queries clipped,
                                                                             // 3: vertices not finite, 4: edge pairs
                                                                             // tested, 5: LBVH nodes visited, 6-8: the
                                                                             // finite vertices' max, 9-11: their min,
                                                                             // (order_bits; the min inverted)
layout(std430, set = 0, binding = 14) buffer SVtCount { uint vt_count[]; }; // contacts found per triangle (ntri)
struct SelfContactOut {
  uvec4 v;     // vertex and triangle corners, or the two edges' ends
  vec4 w;      // weights: +1 and -barycentric, or (1 - s, s, t - 1, -t)
  vec4 n;      // unit normal from the second feature toward the first; w: 1 if crossed during the step
};
layout(std430, set = 0, binding = 15) buffer SVtOut { SelfContactOut vt_out[]; };  // cap_vt per triangle
layout(std430, set = 0, binding = 16) buffer SEeCount { uint ee_count[]; };        // per edge (nedge)
layout(std430, set = 0, binding = 17) buffer SEeOut { SelfContactOut ee_out[]; };  // cap_ee per edge
layout(std430, set = 0, binding = 18) readonly buffer SRingOff { uint ring_off[]; };  // n + 1: neighbours by vertex
layout(std430, set = 0, binding = 19) readonly buffer SRing { uint ring[]; };         // (2 nedge, ascending per vertex)
layout(std430, set = 0, binding = 20) readonly buffer SFanOff { uint fan_off[]; };    // n + 1: triangles by corner;
layout(std430, set = 0, binding = 21) readonly buffer SFan { uint fan[]; };           // empty where the fan is not one
                                                                                      // edge-connected patch
layout(std430, set = 0, binding = 22) buffer SCone { vec4 cone[]; };  // per vertex: its fan's normal cone, axis and
                                                                       // half-angle (pi: unbounded) (n)

// The LBVH over the edges (nedge = m leaves): internal nodes 0 .. m-2 (0: the root), leaf k (the k-th edge in
// Morton order) is node m - 1 + k; with one edge the root is that leaf.
layout(std430, set = 0, binding = 23) buffer SKey { uint mkey[]; };     // Morton codes, two halves of m (ping-pong)
layout(std430, set = 0, binding = 24) buffer SVal { uint mval[]; };     // their edges, two halves of m
layout(std430, set = 0, binding = 25) buffer SHist { uint hist[]; };    // per digit, per chunk (32 x chunks)
layout(std430, set = 0, binding = 26) buffer SChild { uvec2 child[]; }; // internal nodes' children (m - 1)
layout(std430, set = 0, binding = 27) buffer SParent { uint parent[]; }; // every node's parent (2m - 1; root: ~0)
layout(std430, set = 0, binding = 28) coherent buffer SBox { vec4 box[]; };  // every node's lo, hi (2 (2m - 1))
layout(std430, set = 0, binding = 29) coherent buffer SVisit { uint visit[]; };  // refit's arrivals (m - 1)
const uint kRadixChunk = 64u;  // edges per invocation of the radix sort's count and place
const uint kNoNode = 0xffffffffu;

// A float's bits as an unsigned integer in the float's order (integer atomic maxima of positions).
uint order_bits(float f) {
  const uint u = floatBitsToUint(f);
  return (u & 0x80000000u) != 0u ? ~u : u | 0x80000000u;
}
float from_order_bits(uint o) { return uintBitsToFloat((o & 0x80000000u) != 0u ? o & 0x7fffffffu : ~o); }

// The cell of a point and its bucket (Teschner et al. 2003's hash). A point past 1e6 cells or not finite goes
// to cell 0.
ivec3 cell_of(vec3 p) {
  vec3 q = p / sp.cell;
  if (!all(lessThan(abs(q), vec3(1e6)))) q = vec3(0.0);  // false for NaN
  return ivec3(floor(q));
}
uint bucket_of(ivec3 c) {
  return (uint(c.x) * 73856093u ^ uint(c.y) * 19349663u ^ uint(c.z) * 83492791u) & sp.bucket_mask;
}
