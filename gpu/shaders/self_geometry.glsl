// The self-contact tests' geometry, as sim/collision_geometry.cpp and sim/self_collision.cpp compute it
// (closest points, the coplanarity time of four moving points), over self_layout.glsl's x and xp.

// Barycentric weights of the point of triangle (a, b, c) closest to p (Ericson 5.1.5: vertex, edge, face regions).
vec3 closest_point_on_triangle(vec3 p, vec3 a, vec3 b, vec3 c) {
  const vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) return vec3(1, 0, 0);
  const vec3 bp = p - b;
  const float d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) return vec3(0, 1, 0);
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    const float v = d1 / (d1 - d3);
    return vec3(1.0 - v, v, 0);
  }
  const vec3 cp = p - c;
  const float d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) return vec3(0, 0, 1);
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    const float w = d2 / (d2 - d6);
    return vec3(1.0 - w, 0, w);
  }
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    const float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return vec3(0, 1.0 - w, w);
  }
  const float denom = va + vb + vc;
  if (!(denom > 0.0)) return vec3(1.0 / 3.0);
  const float v = vb / denom, w = vc / denom;
  return vec3(1.0 - v - w, v, w);
}

// Parameters (s, t) of the closest points of segments p0 p1 and q0 q1.
vec2 closest_points_on_segments(vec3 p0, vec3 p1, vec3 q0, vec3 q1) {
  const vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const float a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  const float tiny = 1e-20;
  if (a <= tiny && e <= tiny) return vec2(0);
  if (a <= tiny) return vec2(0, clamp(f / e, 0.0, 1.0));
  const float c = dot(d1, r);
  if (e <= tiny) return vec2(clamp(-c / a, 0.0, 1.0), 0);
  const float b = dot(d1, d2), denom = a * e - b * b;
  float s = denom > 1e-12 * a * e ? clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
  float t = (b * s + f) / e;
  if (t < 0.0) {
    t = 0.0;
    s = clamp(-c / a, 0.0, 1.0);
  } else if (t > 1.0) {
    t = 1.0;
    s = clamp((b - c) / a, 0.0, 1.0);
  }
  return vec2(s, t);
}

// Vertex i at time t of the step (0: start, 1: now), on a straight line.
vec3 at(uint i, float t) { return xp[i].xyz + t * (x[i].xyz - xp[i].xyz); }

float volume(vec3 a, vec3 b, vec3 c, vec3 d) { return dot(b - a, cross(c - a, d - a)); }

// First time in (0, 1] at which the four vertices become coplanar, from 8 samples and a linear root; -1 if never
// (sim/self_collision.cpp's coplanar_time).
const int kCoplanarSamples = 8;
float coplanar_time(uvec4 q) {
  float t0 = 0.0;
  float f0 = volume(at(q.x, 0.0), at(q.y, 0.0), at(q.z, 0.0), at(q.w, 0.0));
  for (int k = 1; k <= kCoplanarSamples; ++k) {
    const float t1 = float(k) / float(kCoplanarSamples);
    const float f1 = volume(at(q.x, t1), at(q.y, t1), at(q.z, t1), at(q.w, t1));
    if ((f0 < 0.0 && f1 >= 0.0) || (f0 > 0.0 && f1 <= 0.0)) return t0 + (t1 - t0) * f0 / (f0 - f1);
    t0 = t1;
    f0 = f1;
  }
  return -1.0;
}

// Whether boxes (lo_a, hi_a) and (lo_b, hi_b) are at least gap apart along some axis.
bool boxes_apart(vec3 lo_a, vec3 hi_a, vec3 lo_b, vec3 hi_b, float gap) {
  return any(greaterThanEqual(lo_b - hi_a, vec3(gap))) || any(greaterThanEqual(lo_a - hi_b, vec3(gap)));
}

// Some weighted vertex is free (sim/self_collision.cpp's push_contact drops contacts with none).
bool any_free(uvec4 v, vec4 w) {
  return (w.x != 0.0 && kin[v.x] == 0u) || (w.y != 0.0 && kin[v.y] == 0u) || (w.z != 0.0 && kin[v.z] == 0u) ||
         (w.w != 0.0 && kin[v.w] == 0u);
}

// The cells a box spans, clipped to max_span per axis (counted in global_u[2]: a blown-up state).
void cell_range(vec3 lo, vec3 hi, out ivec3 c0, out ivec3 c1) {
  c0 = cell_of(lo);
  c1 = cell_of(hi);
  const ivec3 span = c1 - c0 + 1;
  if (any(greaterThan(span, ivec3(int(sp.max_span))))) {
    atomicAdd(global_u[2], 1u);
    c1 = min(c1, c0 + ivec3(int(sp.max_span)) - 1);
  }
}

// acos(x) plus its approximation's error bound (sim/bvh.h's acos_upper: Abramowitz & Stegun 4.4.45).
float acos_upper(float c) {
  c = clamp(c, -1.0, 1.0);
  const float a = abs(c);
  const float r = sqrt(1.0 - a) * (1.5707288 + a * (-0.2121144 + a * (0.0742610 - 0.0187293 * a)));
  return (c >= 0.0 ? r : 3.14159265 - r) + 1e-4;
}

bool neighbours(uint a, uint b) {  // an edge joins a and b
  for (uint k = ring_off[a]; k < ring_off[a + 1u]; ++k)
    if (ring[k] == b) return true;
  return false;
}

// Half-angle of a cone holding cones a and b (xyz: unit axis, w: half-angle; sim/bvh.h's merged_half_angle).
float merged(vec4 a, vec4 b) {
  return max(0.5 * (acos_upper(dot(a.xyz, b.xyz)) + a.w + b.w), max(a.w, b.w));
}

// The curvature criterion near the features (sim/self_collision.cpp's in_flat_fans and the BVH's connected
// flat patches, per feature pair instead of per triangle pair): two features that lie in one patch of vertex
// fans joined through edges, whose normals spread less than the limit, are a height field there: no contact.
// A vertex v and a triangle with a corner c: in c's fan when v is next to c; in the fans of u and c when u is
// next to both. Two edges with ends a and b: in a's and b's fans when a is next to b; in the fans of a, u and
// b when u is next to both (the cone about u's axis holding all three).
bool flat_vertex_triangle(uint v, uvec3 t) {
  const float limit = sp.cone_limit;
  if (!(limit > 0.0)) return false;
  for (int k = 0; k < 3; ++k) {
    const vec4 cc = cone[t[k]];
    if (cc.w >= limit) continue;
    if (neighbours(v, t[k])) return true;
    for (uint q = ring_off[v]; q < ring_off[v + 1u]; ++q) {
      const uint u = ring[q];
      const vec4 cu = cone[u];
      if (cu.w < limit && merged(cu, cc) < limit && neighbours(u, t[k])) return true;
    }
  }
  return false;
}
bool flat_edges(uvec4 q) {
  const float limit = sp.cone_limit;
  if (!(limit > 0.0)) return false;
  for (int a = 0; a < 2; ++a)
    for (int b = 2; b < 4; ++b) {
      const vec4 ca = cone[q[a]], cb = cone[q[b]];
      if (ca.w >= limit || cb.w >= limit) continue;
      if (neighbours(q[a], q[b])) {
        if (merged(ca, cb) < limit) return true;
        continue;
      }
      for (uint k = ring_off[q[a]]; k < ring_off[q[a] + 1u]; ++k) {
        const uint u = ring[k];
        const vec4 cu = cone[u];
        if (cu.w >= limit) continue;
        const float spread = max(cu.w, max(acos_upper(dot(cu.xyz, ca.xyz)) + ca.w, acos_upper(dot(cu.xyz, cb.xyz)) + cb.w));
        if (spread < limit && neighbours(u, q[b])) return true;
      }
    }
  return false;
}
