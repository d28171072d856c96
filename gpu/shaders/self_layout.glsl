// The self-contact search's descriptor set (gpu/gpu_self_contacts.h): a spatial hash of the vertices (counting
// sort by bucket, then each bucket sorted by vertex index: integer atomics count and place, the sort makes
// the result independent of their order), then the narrow phase per triangle (vertex-triangle) and per edge
// (edge-edge), each writing its contacts into its own fixed slots in the order it visits cells and vertices.
layout(std430, set = 0, binding = 0) readonly buffer SelfParams {
  uint n, ntri, nedge, bucket_mask;  // vertices, triangles, edges; buckets - 1 (a power of two)
  float cell, reach, thickness, cone_limit;  // cell size, thickness x detection_scale, thickness (m); the
                                            // curvature criterion's half-angle (rad; negative: none)
  uint cap_vt, cap_ee, max_span, pad2; // contact slots per triangle and per edge; cells per axis a query may span
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
                                                                             // 3: vertices not finite
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
