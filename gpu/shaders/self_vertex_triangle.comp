#version 450
// Per triangle: the vertices of the cells its box (grown by the reach and the travel) spans, in cell order
// (z, y, x) and vertex order within a cell, each tested as sim/self_collision.cpp's add_vertex_triangle tests
// it: closer than the reach now, or crossed the triangle's plane through it during the step; oriented by
// the side the vertex was on at the step's start. Contacts go into the triangle's own slots.
layout(local_size_x = 64) in;
#include "self_layout.glsl"
#include "self_geometry.glsl"

void main() {
  const uint t = gl_GlobalInvocationID.x;
  if (t >= sp.ntri) return;
  const uvec3 tc = tri[t].xyz;
  const vec3 a = x[tc.x].xyz, b = x[tc.y].xyz, c = x[tc.z].xyz;
  const vec3 pa = xp[tc.x].xyz, pb = xp[tc.y].xyz, pc = xp[tc.z].xyz;
  const vec3 lo = min(min(a, b), c), hi = max(max(a, b), c);
  const float tri_travel = max(max(travel[tc.x], travel[tc.y]), travel[tc.z]);
  if (!(min(min(travel[tc.x], travel[tc.y]), travel[tc.z]) >= 0.0)) {  // a corner not finite: no contacts
    vt_count[t] = 0u;
    return;
  }
  const float reach = sp.reach, thickness = sp.thickness;
  const float pad = reach + tri_travel + uintBitsToFloat(global_u[0]);
  ivec3 c0, c1;
  cell_range(lo - pad, hi + pad, c0, c1);
  vec3 normal = cross(b - a, c - a);
  const float nlen = length(normal);
  const bool flat_ok = nlen > 0.0;
  normal /= nlen;
  vec3 normal_prev = cross(pb - pa, pc - pa);
  if (!(dot(normal_prev, normal_prev) > 0.0)) normal_prev = normal;
  uint found = 0u;
  for (int cz = c0.z; cz <= c1.z && flat_ok; ++cz)
    for (int cy = c0.y; cy <= c1.y; ++cy)
      for (int cx = c0.x; cx <= c1.x; ++cx) {
        const ivec3 cell = ivec3(cx, cy, cz);
        const uint bk = bucket_of(cell);
        for (uint k = bucket_start[bk]; k < bucket_start[bk + 1u]; ++k) {
          const uint v = sorted[k];
          if (vcell[v].xyz != cell) continue;  // another cell with the same bucket
          if (v == tc.x || v == tc.y || v == tc.z || !(travel[v] >= 0.0)) continue;
          const vec3 p = x[v].xyz;
          const float tr = travel[v] + tri_travel;
          if (boxes_apart(p, p, lo, hi, reach + tr)) continue;
          vec3 w = closest_point_on_triangle(p, a, b, c);
          const vec3 d = p - (w.x * a + w.y * b + w.z * c);
          const float dist = length(d);
          if (dist >= reach + tr) continue;
          if (flat_vertex_triangle(v, tc)) continue;
          const float side_prev = dot(xp[v].xyz - (w.x * pa + w.y * pb + w.z * pc), normal_prev);
          const float side_now = dot(d, normal);
          const bool crossed = abs(side_prev) > 1e-3 * thickness * sqrt(dot(normal_prev, normal_prev)) &&
                               (side_prev > 0.0) != (side_now > 0.0);
          const bool interior = w.x > 1e-4 && w.y > 1e-4 && w.z > 1e-4;
          if (crossed) {
            if (!interior) {
              // Crossed the plane beside the triangle: where it met the plane decides (coplanar_time).
              const float tm = coplanar_time(uvec4(tc, v));
              if (tm < 0.0) continue;
              const vec3 ta = at(tc.x, tm), tb = at(tc.y, tm), tcn = at(tc.z, tm), vc = at(v, tm);
              const vec3 wc = closest_point_on_triangle(vc, ta, tb, tcn);
              const float beside = length(vc - (wc.x * ta + wc.y * tb + wc.z * tcn));
              if (beside > 1e-3 * thickness + tr / float(kCoplanarSamples)) continue;
              w = wc;
            }
          } else if (dist >= reach) {
            continue;
          }
          const float sgn = side_prev >= 0.0 ? 1.0 : -1.0;
          const vec3 nrm = (!crossed && dist > 1e-3 * thickness) ? d / dist : sgn * normal;
          const uvec4 verts = uvec4(v, tc);
          const vec4 wts = vec4(1.0, -w.x, -w.y, -w.z);
          if (!any_free(verts, wts)) continue;
          if (found < sp.cap_vt) vt_out[t * sp.cap_vt + found] = SelfContactOut(verts, wts, vec4(nrm, crossed ? 1.0 : 0.0));
          ++found;
        }
      }
  vt_count[t] = found;
}
