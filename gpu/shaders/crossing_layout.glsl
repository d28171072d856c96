// The crossing check's descriptor set (gpu/gpu_self_crossing.h): after stage 5's passes (and each impact-zone
// move), the triangle pairs that cross now but did not where the corrections started (or did, but not at the
// step's start), found through the search's spatial hash (self_layout.glsl: its parameters, topology, cells and
// vertices by bucket, bound here read-only) as edge-triangle crossings; each pair is written once, by the
// triangle that hosts its first witness, into that triangle's own slots.
layout(std430, set = 0, binding = 0) readonly buffer SelfParams {
  uint n, ntri, nedge, bucket_mask;
  float cell, reach, thickness, cone_limit;
  uint cap_vt, cap_ee, max_span, ee_brute;
  uint chunks, pad0, pad1, pad2;
} sp;
layout(std430, set = 0, binding = 1) readonly buffer CX { vec4 x[]; };     // positions now (n)
layout(std430, set = 0, binding = 2) readonly buffer CX0 { vec4 x0[]; };   // where the corrections started (n):
                                                                           // the hash's positions
layout(std430, set = 0, binding = 3) readonly buffer CXP { vec4 xp[]; };   // the step's start (n)
layout(std430, set = 0, binding = 4) readonly buffer CTri { uvec4 tri[]; };           // corners (ntri)
layout(std430, set = 0, binding = 5) readonly buffer CEdge { uvec2 edge[]; };         // ends (nedge)
layout(std430, set = 0, binding = 6) readonly buffer CEdgeOff { uint edge_off[]; };   // n + 1: edges by end
layout(std430, set = 0, binding = 7) readonly buffer CEdgeList { uint edge_list[]; }; // (2 nedge)
layout(std430, set = 0, binding = 8) readonly buffer CVCell { ivec4 vcell[]; };       // cell xyz, bucket (n)
layout(std430, set = 0, binding = 9) readonly buffer CStart { uint bucket_start[]; }; // buckets + 1
layout(std430, set = 0, binding = 10) readonly buffer CSorted { uint sorted[]; };     // vertices by bucket (n)
layout(std430, set = 0, binding = 11) readonly buffer CTriEdge { uvec4 tri_edge[]; }; // edges of each triangle
layout(std430, set = 0, binding = 12) readonly buffer CEdgeTri { uvec2 edge_tri[]; }; // triangles of each edge
                                                                                       // (~0u: none)
layout(std430, set = 0, binding = 13) buffer CShifted { uint shifted[]; };  // 1: moved by the corrections (the
                                                                            // first round) or the last zone move (n)
layout(std430, set = 0, binding = 14) buffer CGlobal { uint cglobal[]; };   // 0: longest edge now, 1: farthest
                                                                            // vertex from its hash position (float
                                                                            // bits), 2: pairs found (all rounds),
                                                                            // 3: dropped, 4: queries clipped,
                                                                            // 5: pairs found this round
layout(std430, set = 0, binding = 15) buffer CPairCount { uint pair_count[]; };  // pairs found per triangle (ntri)
layout(std430, set = 0, binding = 16) buffer CPairOut { uvec2 pair_out[]; };     // cap per triangle: (lower, higher)
layout(std430, set = 0, binding = 17) readonly buffer CGate { uint gate[]; };  // the zones' counters: [2], the
                                                                               // crossing rounds that grew
layout(push_constant) uniform CrossingPush {
  uint round;  // 0: shifted = moved since the corrections started; later: only if every round before grew
  uint cap;    // pair slots per triangle
} cpush;
// A round after one that did not grow the zones would find the same pairs again: it finds none.
bool round_needed() { return cpush.round == 0u || gate[2] >= cpush.round; }
const uint kNone = 0xffffffffu;

ivec3 cell_of(vec3 p) {  // self_layout.glsl's
  vec3 q = p / sp.cell;
  if (!all(lessThan(abs(q), vec3(1e6)))) q = vec3(0.0);
  return ivec3(floor(q));
}
uint bucket_of(ivec3 c) {
  return (uint(c.x) * 73856093u ^ uint(c.y) * 19349663u ^ uint(c.z) * 83492791u) & sp.bucket_mask;
}

// Sign of the orientation of (a, b, c, d) (sim/collision_geometry.cpp's orient3d, in float: the CPU's is in
// double, so the two can differ only for four points within float rounding of one plane).
int orient3d(vec3 a, vec3 b, vec3 c, vec3 d) {
  precise const vec3 u = b - a, v = c - a, w = d - a;
  precise const float det = u.x * (v.y * w.z - v.z * w.y) + u.y * (v.z * w.x - v.x * w.z) + u.z * (v.x * w.y - v.y * w.x);
  return int(det > 0.0) - int(det < 0.0);
}
// sim/collision_geometry.cpp's segment_crosses_triangle: the ends strictly on both sides of the plane, the line
// strictly inside the three edges.
bool segment_crosses(vec3 p, vec3 q, vec3 a, vec3 b, vec3 c) {
  const int s0 = orient3d(a, b, c, p), s1 = orient3d(a, b, c, q);
  if (s0 == 0 || s1 == 0 || s0 == s1) return false;
  const int e0 = orient3d(p, q, a, b), e1 = orient3d(p, q, b, c), e2 = orient3d(p, q, c, a);
  return e0 != 0 && e0 == e1 && e1 == e2;
}
