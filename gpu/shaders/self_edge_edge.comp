#version 450
// Per edge a: every edge b > a with an end in the cells a's box spans, grown by the reach, both travels and
// half the longest edge (any b within reach of a has the end nearer its closest point inside; b is taken at
// its first end, or at its second when the first is not taken: outside the box or its visited cells), tested as
// sim/self_collision.cpp's add_edge_edge tests a pair: closest at interior points closer than the reach, or
// crossed during the step; oriented along the edges' common normal by the side at the step's start.
layout(local_size_x = 64) in;
#include "self_layout.glsl"
#include "self_geometry.glsl"

bool outside(vec3 p, vec3 lo, vec3 hi) { return any(lessThan(p, lo)) || any(greaterThan(p, hi)); }

void main() {
  const uint ea = gl_GlobalInvocationID.x;
  if (ea >= sp.nedge) return;
  const uint i0 = edge[ea].x, i1 = edge[ea].y;
  const vec3 a0 = x[i0].xyz, a1 = x[i1].xyz;
  const vec3 lo_a = min(a0, a1), hi_a = max(a0, a1);
  const float travel_a = max(travel[i0], travel[i1]);
  if (!(min(travel[i0], travel[i1]) >= 0.0)) {  // an end not finite: no contacts
    ee_count[ea] = 0u;
    return;
  }
  const float reach = sp.reach, thickness = sp.thickness;
  const float pad = reach + travel_a + uintBitsToFloat(global_u[0]) + 0.5 * uintBitsToFloat(global_u[1]);
  const vec3 lo_q = lo_a - pad, hi_q = hi_a + pad;  // the query box: its cells are visited, its vertices taken
  ivec3 c0, c1;
  cell_range(lo_q, hi_q, c0, c1);
  uint found = 0u;
  for (int cz = c0.z; cz <= c1.z; ++cz)
    for (int cy = c0.y; cy <= c1.y; ++cy)
      for (int cx = c0.x; cx <= c1.x; ++cx) {
        const ivec3 cell = ivec3(cx, cy, cz);
        const uint bk = bucket_of(cell);
        for (uint k = bucket_start[bk]; k < bucket_start[bk + 1u]; ++k) {
          const uint jv = sorted[k];
          if (vcell[jv].xyz != cell || outside(x[jv].xyz, lo_q, hi_q)) continue;
          for (uint q = edge_off[jv]; q < edge_off[jv + 1u]; ++q) {
            const uint eb = edge_list[q];
            if (eb <= ea) continue;
            const uint j0 = edge[eb].x, j1 = edge[eb].y;
            if (jv == j1 && all(greaterThanEqual(vcell[j0].xyz, c0)) && all(lessThanEqual(vcell[j0].xyz, c1)) &&
                !outside(x[j0].xyz, lo_q, hi_q))
              continue;  // taken at its first end
            if (i0 == j0 || i0 == j1 || i1 == j0 || i1 == j1 || !(min(travel[j0], travel[j1]) >= 0.0)) continue;
            const vec3 b0 = x[j0].xyz, b1 = x[j1].xyz;
            const float tr = travel_a + max(travel[j0], travel[j1]);
            if (boxes_apart(lo_a, hi_a, min(b0, b1), max(b0, b1), reach + tr)) continue;
            const vec2 st = closest_points_on_segments(a0, a1, b0, b1);
            const uvec4 verts = uvec4(i0, i1, j0, j1);
            if (flat_edges(verts)) continue;
            if (st.x <= 0.0 || st.x >= 1.0 || st.y <= 0.0 || st.y >= 1.0) {
              // Closest at an end: a crossing during the step, if they moved more than a thickness.
              if (!(tr > thickness)) continue;
              const vec3 gap_now = a0 + st.x * (a1 - a0) - (b0 + st.y * (b1 - b0));
              if (length(gap_now) >= reach + tr) continue;
              const float tm = coplanar_time(verts);
              if (tm < 0.0) continue;
              const vec3 c_a0 = at(i0, tm), c_a1 = at(i1, tm), c_b0 = at(j0, tm), c_b1 = at(j1, tm);
              const vec2 sc = closest_points_on_segments(c_a0, c_a1, c_b0, c_b1);
              if (sc.x <= 0.0 || sc.x >= 1.0 || sc.y <= 0.0 || sc.y >= 1.0) continue;
              const vec3 dc = (c_a0 + sc.x * (c_a1 - c_a0)) - (c_b0 + sc.y * (c_b1 - c_b0));
              if (length(dc) > 0.25 * thickness + tr / float(kCoplanarSamples)) continue;
              vec3 axis = cross(a1 - a0, b1 - b0);
              const vec3 d_prev = (xp[i0].xyz + sc.x * (xp[i1].xyz - xp[i0].xyz)) -
                                  (xp[j0].xyz + sc.y * (xp[j1].xyz - xp[j0].xyz));
              if (!(dot(axis, axis) > 0.0)) axis = d_prev;
              if (!(dot(axis, axis) > 0.0)) continue;
              axis = normalize(axis);
              const float side_prev = dot(d_prev, axis);
              if (!(abs(side_prev) > 1e-3 * thickness)) continue;
              const vec4 wts = vec4(1.0 - sc.x, sc.x, sc.y - 1.0, -sc.y);
              if (!any_free(verts, wts)) continue;
              if (found < sp.cap_ee)
                ee_out[ea * sp.cap_ee + found] = SelfContactOut(verts, wts, vec4(side_prev > 0.0 ? axis : -axis, 1.0));
              ++found;
              continue;
            }
            const vec3 pp = a0 + st.x * (a1 - a0), qq = b0 + st.y * (b1 - b0);
            const vec3 d = pp - qq;
            const float dist = length(d);
            if (dist >= reach + tr) continue;
            const vec3 d_prev = (xp[i0].xyz + st.x * (xp[i1].xyz - xp[i0].xyz)) -
                                (xp[j0].xyz + st.y * (xp[j1].xyz - xp[j0].xyz));
            vec3 axis = cross(a1 - a0, b1 - b0);
            const float alen = length(axis);
            if (alen > 1e-3 * length(a1 - a0) * length(b1 - b0)) {
              axis /= alen;
            } else {
              if (!(dist > 1e-3 * thickness)) continue;  // nearly parallel and touching: no direction
              axis = d / dist;
            }
            const float side_prev = dot(d_prev, axis), side_now = dot(d, axis);
            const bool crossed = abs(side_prev) > 1e-3 * thickness && (side_prev > 0.0) != (side_now > 0.0);
            const float sgn = side_prev >= 0.0 ? 1.0 : -1.0;
            if (!crossed && dist >= reach) continue;
            const vec3 nrm = (!crossed && dist > 1e-3 * thickness) ? d / dist : sgn * axis;
            const vec4 wts = vec4(1.0 - st.x, st.x, st.y - 1.0, -st.y);
            if (!any_free(verts, wts)) continue;
            if (found < sp.cap_ee) ee_out[ea * sp.cap_ee + found] = SelfContactOut(verts, wts, vec4(nrm, crossed ? 1.0 : 0.0));
            ++found;
          }
        }
      }
  ee_count[ea] = found;
}
