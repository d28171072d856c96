#version 450
// Per edge a: every edge b > a that the LBVH (self_lbvh_*.comp) gives, its box grown by its travel
// overlapping a's grown by the reach and a's travel (or every b > a: GpuSelfContactOptions::edge_brute_force, a
// test's reference), tested as sim/self_collision.cpp's add_edge_edge tests a pair: closest at interior
// points closer than the reach, or crossed during the step; oriented along the edges' common normal by the
// side at the step's start. The contacts keep the order and the set of the spatial hash this search used before
// the tree: b counts when an end lies in a's box grown also by the largest travel and half the longest edge,
// in the cells that box spans (clipped to max_span), taken at its first such end; its key is that end's cell
// (z, y, x order within the query), the end's index, then b. Each edge keeps its cap_ee smallest keys in
// order in its slots and counts the rest: one list whatever order the tree gives them in.
layout(local_size_x = 64) in;
#include "self_layout.glsl"
#include "self_geometry.glsl"

const uint kMaxSlots = 32u;  // GpuSelfContacts rejects slots_per_edge above it
const int kStack = 64;       // the tree is at most 62 levels deep (30 code bits, 32 position bits)

bool outside(vec3 p, vec3 lo, vec3 hi) { return any(lessThan(p, lo)) || any(greaterThan(p, hi)); }
bool less(uvec3 a, uvec3 b) { return a.x != b.x ? a.x < b.x : (a.y != b.y ? a.y < b.y : a.z < b.z); }

// Edge a and its query, set once per invocation.
uint ea, i0, i1;
vec3 a0, a1, lo_a, hi_a, lo_q, hi_q;
float travel_a, reach, thickness;
ivec3 c0, c1;
uint found = 0u, tested = 0u;
uvec3 kept[kMaxSlots];

// A contact into a's slots in key order: the cap_ee smallest keys stay, every one is counted.
void keep(uvec3 key, SelfContactOut c) {
  const uint cap = sp.cap_ee, base = ea * cap;
  uint pos;
  if (found < cap) {
    pos = found;
  } else if (cap > 0u && less(key, kept[cap - 1u])) {
    pos = cap - 1u;
  } else {
    ++found;
    return;
  }
  while (pos > 0u && less(key, kept[pos - 1u])) {
    kept[pos] = kept[pos - 1u];
    ee_out[base + pos] = ee_out[base + pos - 1u];
    --pos;
  }
  kept[pos] = key;
  ee_out[base + pos] = c;
  ++found;
}

// Whether the hash took b at its end j: inside the query box and in its (clipped) cells.
bool taken(uint j) {
  return all(greaterThanEqual(vcell[j].xyz, c0)) && all(lessThanEqual(vcell[j].xyz, c1)) &&
         !outside(x[j].xyz, lo_q, hi_q);
}

void consider(uint eb) {
  if (eb <= ea) return;
  ++tested;
  const uint j0 = edge[eb].x, j1 = edge[eb].y;
  const uint jv = taken(j0) ? j0 : (taken(j1) ? j1 : kNoNode);
  if (jv == kNoNode) return;
  const ivec3 r = vcell[jv].xyz - c0, span = c1 - c0 + 1;
  const uvec3 key = uvec3(uint((r.z * span.y + r.y) * span.x + r.x), jv, eb);
  if (i0 == j0 || i0 == j1 || i1 == j0 || i1 == j1 || !(min(travel[j0], travel[j1]) >= 0.0)) return;
  const vec3 b0 = x[j0].xyz, b1 = x[j1].xyz;
  const float tr = travel_a + max(travel[j0], travel[j1]);
  if (boxes_apart(lo_a, hi_a, min(b0, b1), max(b0, b1), reach + tr)) return;
  const vec2 st = closest_points_on_segments(a0, a1, b0, b1);
  const uvec4 verts = uvec4(i0, i1, j0, j1);
  if (flat_edges(verts)) return;
  if (st.x <= 0.0 || st.x >= 1.0 || st.y <= 0.0 || st.y >= 1.0) {
    // Closest at an end: a crossing during the step, if they moved more than a thickness.
    if (!(tr > thickness)) return;
    const vec3 gap_now = a0 + st.x * (a1 - a0) - (b0 + st.y * (b1 - b0));
    if (length(gap_now) >= reach + tr) return;
    const float tm = coplanar_time(verts);
    if (tm < 0.0) return;
    const vec3 c_a0 = at(i0, tm), c_a1 = at(i1, tm), c_b0 = at(j0, tm), c_b1 = at(j1, tm);
    const vec2 sc = closest_points_on_segments(c_a0, c_a1, c_b0, c_b1);
    if (sc.x <= 0.0 || sc.x >= 1.0 || sc.y <= 0.0 || sc.y >= 1.0) return;
    const vec3 dc = (c_a0 + sc.x * (c_a1 - c_a0)) - (c_b0 + sc.y * (c_b1 - c_b0));
    if (length(dc) > 0.25 * thickness + tr / float(kCoplanarSamples)) return;
    vec3 axis = cross(a1 - a0, b1 - b0);
    const vec3 d_prev = (xp[i0].xyz + sc.x * (xp[i1].xyz - xp[i0].xyz)) -
                        (xp[j0].xyz + sc.y * (xp[j1].xyz - xp[j0].xyz));
    if (!(dot(axis, axis) > 0.0)) axis = d_prev;
    if (!(dot(axis, axis) > 0.0)) return;
    axis = normalize(axis);
    const float side_prev = dot(d_prev, axis);
    if (!(abs(side_prev) > 1e-3 * thickness)) return;
    const vec4 wts = vec4(1.0 - sc.x, sc.x, sc.y - 1.0, -sc.y);
    if (!any_free(verts, wts)) return;
    keep(key, SelfContactOut(verts, wts, vec4(side_prev > 0.0 ? axis : -axis, 1.0)));
    return;
  }
  const vec3 pp = a0 + st.x * (a1 - a0), qq = b0 + st.y * (b1 - b0);
  const vec3 d = pp - qq;
  const float dist = length(d);
  if (dist >= reach + tr) return;
  const vec3 d_prev = (xp[i0].xyz + st.x * (xp[i1].xyz - xp[i0].xyz)) -
                      (xp[j0].xyz + st.y * (xp[j1].xyz - xp[j0].xyz));
  vec3 axis = cross(a1 - a0, b1 - b0);
  const float alen = length(axis);
  if (alen > 1e-3 * length(a1 - a0) * length(b1 - b0)) {
    axis /= alen;
  } else {
    if (!(dist > 1e-3 * thickness)) return;  // nearly parallel and touching: no direction
    axis = d / dist;
  }
  const float side_prev = dot(d_prev, axis), side_now = dot(d, axis);
  const bool crossed = abs(side_prev) > 1e-3 * thickness && (side_prev > 0.0) != (side_now > 0.0);
  const float sgn = side_prev >= 0.0 ? 1.0 : -1.0;
  if (!crossed && dist >= reach) return;
  const vec3 nrm = (!crossed && dist > 1e-3 * thickness) ? d / dist : sgn * axis;
  const vec4 wts = vec4(1.0 - st.x, st.x, st.y - 1.0, -st.y);
  if (!any_free(verts, wts)) return;
  keep(key, SelfContactOut(verts, wts, vec4(nrm, crossed ? 1.0 : 0.0)));
}

bool overlaps(uint node, vec3 lo, vec3 hi) {
  return all(lessThanEqual(box[2u * node].xyz, hi)) && all(lessThanEqual(lo, box[2u * node + 1u].xyz));
}

void main() {
  if (gl_GlobalInvocationID.x >= sp.nedge) return;
  // The tree's queries in Morton order: neighbouring invocations walk the same branches.
  ea = sp.ee_brute != 0u ? gl_GlobalInvocationID.x : mval[gl_GlobalInvocationID.x];
  i0 = edge[ea].x;
  i1 = edge[ea].y;
  a0 = x[i0].xyz;
  a1 = x[i1].xyz;
  lo_a = min(a0, a1);
  hi_a = max(a0, a1);
  travel_a = max(travel[i0], travel[i1]);
  if (!(min(travel[i0], travel[i1]) >= 0.0)) {  // an end not finite: no contacts
    ee_count[ea] = 0u;
    return;
  }
  reach = sp.reach;
  thickness = sp.thickness;
  const float max_travel = uintBitsToFloat(global_u[0]);
  const float pad = reach + travel_a + max_travel + 0.5 * uintBitsToFloat(global_u[1]);
  lo_q = lo_a - pad;
  hi_q = hi_a + pad;
  cell_range(lo_q, hi_q, c0, c1);
  const uint m = sp.nedge;
  if (sp.ee_brute != 0u) {
    for (uint eb = ea + 1u; eb < m; ++eb) consider(eb);
  } else {
    // The tree's query: a's box grown by the reach and its travel (b's box holds b's), and by a few float
    // roundings of its coordinates so that no pair the narrow phase's box test keeps is left out.
    const float slack = 1e-5 * (1.0 + max(max(abs(lo_a.x), abs(lo_a.y)), max(max(abs(lo_a.z), abs(hi_a.x)),
                                      max(abs(hi_a.y), abs(hi_a.z)))) + reach + travel_a + max_travel);
    const vec3 lo_t = lo_a - (reach + travel_a + slack), hi_t = hi_a + (reach + travel_a + slack);
    uint stack[kStack];
    int top = 0;
    stack[top++] = 0u;
    uint visited = 0u;
    while (top > 0) {
      const uint node = stack[--top];
      ++visited;
      if (!overlaps(node, lo_t, hi_t)) continue;
      if (node >= m - 1u) {
        consider(mval[node - (m - 1u)]);
        continue;
      }
      if (top + 2 > kStack) {  // deeper than the codes allow: counted as a clipped query
        atomicAdd(global_u[2], 1u);
        continue;
      }
      stack[top++] = child[node].y;
      stack[top++] = child[node].x;
    }
    atomicAdd(global_u[5], visited);
  }
  atomicAdd(global_u[4], tested);
  ee_count[ea] = found;
}
