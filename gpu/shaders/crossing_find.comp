#version 450
// Per triangle t: the edges with an end in the cells its box spans (grown by the longest edge and the farthest
// any vertex moved from its hash position), each tested for crossing t now (sim/self_collision.cpp's
// zone_crossings, whose triangle pairs cross iff an edge of one crosses the other). For each triangle a of such
// an edge, the pair (t, a) as zone_crossings takes it: no corner in common, a corner of either moved since the
// corrections started (first round) or by the last zone move, and either not crossing where the corrections
// started or crossing there but not at the step's start. A pair is written by the host of its first witness
// ((host triangle, edge) in lexicographic order over both triangles' crossing edges), so once, in the order the
// cells and vertices are visited: one device gives one list.
layout(local_size_x = 64) in;
#include "crossing_layout.glsl"

bool shares(uvec3 a, uvec3 b) {
  return any(equal(a, b.xxx)) || any(equal(a, b.yyy)) || any(equal(a, b.zzz));
}
bool crosses_now(uint e, uvec3 t) {
  return segment_crosses(x[edge[e].x].xyz, x[edge[e].y].xyz, x[t.x].xyz, x[t.y].xyz, x[t.z].xyz);
}
bool tris_cross_x0(uvec3 a, uvec3 b) {
  const vec3 a0 = x0[a.x].xyz, a1 = x0[a.y].xyz, a2 = x0[a.z].xyz, b0 = x0[b.x].xyz, b1 = x0[b.y].xyz, b2 = x0[b.z].xyz;
  return segment_crosses(a0, a1, b0, b1, b2) || segment_crosses(a1, a2, b0, b1, b2) ||
         segment_crosses(a2, a0, b0, b1, b2) || segment_crosses(b0, b1, a0, a1, a2) ||
         segment_crosses(b1, b2, a0, a1, a2) || segment_crosses(b2, b0, a0, a1, a2);
}
bool tris_cross_xp(uvec3 a, uvec3 b) {
  const vec3 a0 = xp[a.x].xyz, a1 = xp[a.y].xyz, a2 = xp[a.z].xyz, b0 = xp[b.x].xyz, b1 = xp[b.y].xyz, b2 = xp[b.z].xyz;
  return segment_crosses(a0, a1, b0, b1, b2) || segment_crosses(a1, a2, b0, b1, b2) ||
         segment_crosses(a2, a0, b0, b1, b2) || segment_crosses(b0, b1, a0, a1, a2) ||
         segment_crosses(b1, b2, a0, a1, a2) || segment_crosses(b2, b0, a0, a1, a2);
}

void main() {
  const uint t = gl_GlobalInvocationID.x;
  if (t >= sp.ntri) return;
  const uvec3 tc = tri[t].xyz;
  const vec3 a = x[tc.x].xyz, b = x[tc.y].xyz, c = x[tc.z].xyz;
  uint found = 0u;
  if (round_needed() && all(lessThan(abs(vec3(a + b + c)), vec3(1e30)))) {  // false for NaN and infinities: nothing looked for
    const float grow = uintBitsToFloat(cglobal[0]) + uintBitsToFloat(cglobal[1]);
    ivec3 c0 = cell_of(min(min(a, b), c) - grow), c1 = cell_of(max(max(a, b), c) + grow);
    if (any(greaterThan(c1 - c0 + 1, ivec3(int(sp.max_span))))) {
      atomicAdd(cglobal[4], 1u);
      c1 = min(c1, c0 + ivec3(int(sp.max_span)) - 1);
    }
    const bool touched_t = (shifted[tc.x] | shifted[tc.y] | shifted[tc.z]) != 0u;
    for (int cz = c0.z; cz <= c1.z; ++cz)
      for (int cy = c0.y; cy <= c1.y; ++cy)
        for (int cx = c0.x; cx <= c1.x; ++cx) {
          const ivec3 cell = ivec3(cx, cy, cz);
          const uint bk = bucket_of(cell);
          for (uint k = bucket_start[bk]; k < bucket_start[bk + 1u]; ++k) {
            const uint v = sorted[k];
            if (vcell[v].xyz != cell) continue;  // another cell with the same bucket
            for (uint j = edge_off[v]; j < edge_off[v + 1u]; ++j) {
              const uint e = edge_list[j];
              const uint w = edge[e].x == v ? edge[e].y : edge[e].x;
              // An edge with both ends in the cells is taken from its lower end.
              if (w < v && all(greaterThanEqual(vcell[w].xyz, c0)) && all(lessThanEqual(vcell[w].xyz, c1))) continue;
              if (any(equal(tc, uvec3(v))) || any(equal(tc, uvec3(w)))) continue;
              if (!crosses_now(e, tc)) continue;
              for (int s = 0; s < 2; ++s) {
                const uint o = s == 0 ? edge_tri[e].x : edge_tri[e].y;
                if (o == kNone) continue;
                const uvec3 oc = tri[o].xyz;
                if (shares(tc, oc)) continue;
                // The first witness: (o, an edge of t crossing o) when o < t, else (t, an edge of o below e).
                bool first = true;
                for (int q = 0; q < 3 && first; ++q) {
                  const uint f = tri_edge[o][q];
                  if (f < e && crosses_now(f, tc)) first = false;
                  const uint g = tri_edge[t][q];
                  if (o < t && crosses_now(g, oc)) first = false;
                }
                if (!first) continue;
                const bool touched = touched_t || (shifted[oc.x] | shifted[oc.y] | shifted[oc.z]) != 0u;
                if (!touched) continue;
                // Crossed where the corrections started too: the step took it through; a pair crossing at the
                // step's start as well is a tangle, left to the untangling.
                if (tris_cross_x0(tc, oc) && tris_cross_xp(tc, oc)) continue;
                if (found < cpush.cap) pair_out[t * cpush.cap + found] = uvec2(min(t, o), max(t, o));
                ++found;
              }
            }
          }
        }
  }
  pair_count[t] = found;
  if (found > 0u) {
    atomicAdd(cglobal[2], min(found, cpush.cap));
    atomicAdd(cglobal[5], min(found, cpush.cap));
    if (found > cpush.cap) atomicAdd(cglobal[3], found - cpush.cap);
  }
}
