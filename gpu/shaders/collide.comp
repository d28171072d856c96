#version 450
// The colliders' position pass (sim/collider.cpp resolve_collisions), one vertex per invocation, its
// colliders in order as the CPU visits them (the CPU's loop runs collider by collider over the vertices,
// but a vertex's correction depends on nothing but its own state and the colliders: the same result). A
// vertex within the thickness gets Volino's contact response (inelastic normal, Coulomb friction) and the
// tangential part of the tick's motion redone with it, then is pushed out to the thickness; a vertex that
// crossed a collider within the tick goes back to where it entered. pc.mode 1: the first pass of the tick
// (counts the contacts, keeps each vertex's first contact normal for the translation correction's axes).
// kGate: a pass of the alternation, skipped once it has settled.
#include "contact_layout.glsl"
#include "collider_shape.glsl"

float contact(Col c, vec3 p, vec3 p_prev, out vec3 n) {
  float d = distance_now(c, p, n);
  if (c.shape != kBox || d >= 0.0) return d;
  vec3 l = to_local(c.p, c.q, p);
  vec3 lp = to_local(c.pp, c.pq, p_prev);
  vec3 q_prev = abs(lp) - c.he;
  int axis = 0;
  if (q_prev.y > q_prev[axis]) axis = 1;
  if (q_prev.z > q_prev[axis]) axis = 2;
  if (q_prev[axis] <= 0.0) return d;
  float side = lp[axis] < 0.0 ? -1.0 : 1.0;
  vec3 nl = vec3(0.0);
  nl[axis] = side;
  n = rot(c.q, nl);
  return side * l[axis] - c.he[axis];
}

bool swept_box_entry(Col c, vec3 p_prev, vec3 p, out vec3 entry, out vec3 n) {
  entry = p;
  n = vec3(0.0, 1.0, 0.0);
  vec3 p0 = to_local(c.pp, c.pq, p_prev), p1 = to_local(c.p, c.q, p);
  vec3 he = c.he;
  if (all(lessThanEqual(abs(p0), he))) return false;
  vec3 d = p1 - p0;
  float t_in = 0.0, t_out = 1.0;
  int axis = -1;
  for (int k = 0; k < 3; ++k) {
    if (abs(d[k]) < 1e-12) {
      if (abs(p0[k]) > he[k]) return false;
      continue;
    }
    float a = (-he[k] - p0[k]) / d[k], b = (he[k] - p0[k]) / d[k];
    if (a > b) { float t = a; a = b; b = t; }
    if (a > t_in) { t_in = a; axis = k; }
    t_out = min(t_out, b);
    if (t_in > t_out) return false;
  }
  if (axis < 0) return false;
  vec3 nl = vec3(0.0);
  nl[axis] = d[axis] > 0.0 ? -1.0 : 1.0;
  entry = to_world(c.p, c.q, p0 + t_in * d);
  n = rot(c.q, nl);
  return true;
}

bool swept_entry(Col c, vec3 p_prev, vec3 p, out vec3 entry, out vec3 n) {
  entry = p;
  n = vec3(0.0, 1.0, 0.0);
  if (c.shape == kPlane) return false;
  if (c.shape == kBox) return swept_box_entry(c, p_prev, p, entry, n);
  bool moved = (c.flags & kMoving) != 0u;
  vec3 a = moved ? to_local(c.pp, c.pq, p_prev) : p_prev;
  vec3 b = moved ? to_local(c.p, c.q, p) : p;
  vec3 pos = moved ? vec3(0.0) : c.p;
  vec4 q = moved ? vec4(0.0, 0.0, 0.0, 1.0) : c.q;
  vec3 m;
  if (distance_at_pose(c, pos, q, a, m) < 0.0) return false;
  float lo = 0.0, hi = 1.0;
  for (int k = 0; k < 40; ++k) {
    float s = lo + (hi - lo) / 3.0, t = hi - (hi - lo) / 3.0;
    if (distance_at_pose(c, pos, q, a + s * (b - a), m) < distance_at_pose(c, pos, q, a + t * (b - a), m)) hi = t;
    else lo = s;
  }
  float inside = 0.5 * (lo + hi);
  if (distance_at_pose(c, pos, q, a + inside * (b - a), m) >= 0.0) return false;
  float outside = 0.0;
  for (int k = 0; k < 30; ++k) {
    float mid = 0.5 * (outside + inside);
    if (distance_at_pose(c, pos, q, a + mid * (b - a), m) >= 0.0) outside = mid;
    else inside = mid;
  }
  entry = a + outside * (b - a);
  if (moved) entry = to_world(c.p, c.q, entry);
  distance_now(c, entry, n);
  return true;
}

bool bounds_at(Col c, vec3 pos, vec4 q, out vec3 lo, out vec3 hi) {
  lo = vec3(-1e30);
  hi = vec3(1e30);
  if (c.shape == kPlane) return false;
  vec3 r0 = rot(q, vec3(1.0, 0.0, 0.0)), r1 = rot(q, vec3(0.0, 1.0, 0.0)), r2 = rot(q, vec3(0.0, 0.0, 1.0));
  vec3 extent;
  if (c.shape == kSphere) extent = vec3(c.radius);
  else if (c.shape == kCapsule) extent = abs(r1) * c.half_length + vec3(c.radius);
  else extent = abs(r0) * c.he.x + abs(r1) * c.he.y + abs(r2) * c.he.z;
  lo = pos - extent;
  hi = pos + extent;
  return true;
}

vec3 point_velocity(Col c, vec3 p) { return c.lin + cross(c.ang, p - c.p); }

vec3 contact_response(vec3 v_rel, vec3 n, float mu_static, float mu_kinetic) {
  float vn = dot(v_rel, n);
  if (vn >= 0.0) return v_rel;
  float dvn = -vn;
  vec3 vt = v_rel - vn * n;
  float vt_len = length(vt);
  if (vt_len <= mu_static * dvn) return vec3(0.0);
  vt *= max(0.0, 1.0 - mu_kinetic * dvn / vt_len);
  return vt;
}

bool pressed_into_still(uint ncol, vec3 p, vec3 n, float reach) {
  for (uint k = 0u; k < ncol; ++k) {
    Col s = load(k);
    if ((s.flags & kStill) == 0u) continue;
    vec3 ns;
    if (distance_now(s, p, ns) < reach && dot(n, ns) < -0.2) return true;
  }
  return false;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  if ((pc.flags & kGate) != 0u && sc[kAltDone] != 0u) return;
  if (inv_mass(i) == 0.0) return;
  bool first = pc.mode == 1u;
  bool kin = kinematic(i);
  uint held_by = uint(vinfo[i].z);
  uint ncol = uint(tick[0].x);
  float thickness = pc.thickness;
  vec3 xi = x[i].xyz, vi = v[i].xyz, xpi = xp[i].xyz;
  vec4 out_con = first ? vec4(0.0) : con[i];
  for (uint c = 0u; c < ncol; ++c) {
    Col col = load(c);
    bool plane = col.shape == kPlane;
    bool follows = col.follows >= 0;
    bool skip = (col.flags & kClears) != 0u ? ((pc.flags & kClearHeld) != 0u && kin) : (follows && kin);
    if (skip) continue;
    if (follows && ((held_by >> uint(col.follows)) & 1u) != 0u) continue;
    bool moving = (col.flags & kMoving) != 0u;
    vec3 lo, hi;
    if (bounds_at(col, col.p, col.q, lo, hi)) {
      if (moving) {
        vec3 lo0, hi0;
        bounds_at(col, col.pp, col.pq, lo0, hi0);
        lo = min(lo, lo0);
        hi = max(hi, hi0);
      }
      lo -= thickness;
      hi += thickness;
    }
    vec3 p = xi;
    vec3 mlo = plane ? p : min(p, xpi), mhi = plane ? p : max(p, xpi);
    if (mhi.x < lo.x || mhi.y < lo.y || mhi.z < lo.z || mlo.x > hi.x || mlo.y > hi.y || mlo.z > hi.z) continue;
    vec3 pn = rot(col.q, vec3(0.0, 1.0, 0.0));
    if (plane && dot(p - col.p, pn) >= thickness) continue;
    vec3 n;
    if (follows && distance_at_pose(col, col.pp, col.pq, xpi, n) < 0.0) continue;
    float d = contact(col, xi, xpi, n);
    if (follows && d < thickness && pressed_into_still(ncol, xi, n, 2.0 * thickness)) continue;
    bool swept = false;
    if (d < thickness && moving && !plane && col.shape != kBox) {
      vec3 carried = to_world(col.p, col.q, to_local(col.pp, col.pq, xpi));
      vec3 entry, n_entry;
      if (dot(n, xi - carried) > 0.0 && swept_entry(col, xpi, xi, entry, n_entry)) {
        xi = entry;
        n = n_entry;
        d = 0.0;
        swept = true;
      }
    }
    if (d >= thickness) {
      vec3 entry;
      vec3 rel = moving ? to_local(col.p, col.q, xi) - to_local(col.pp, col.pq, xpi) : xi - xpi;
      if (length(rel) < thickness || !swept_entry(col, xpi, xi, entry, n)) continue;
      xi = entry;
      d = 0.0;
      swept = true;
    }
    if (first) atomicAdd(sc[kContacts], 1u);
    vec3 vc = point_velocity(col, xi);
    vec3 v_rel = vi - vc;
    if (dot(v_rel, n) < 0.0) {
      vec3 v_out = contact_response(v_rel, n, col.mu_s, col.mu_k);
      if (v_out == vec3(0.0)) atomicOr(sc[kStuck], 1u);
      vec3 v_new = vc + v_out;
      if (!swept) {
        vec3 dv = v_new - vi;
        float back = pc.h * dot(dv, n);
        xi += back > thickness && !moving ? pc.h * (dv - dot(dv, n) * n) : pc.h * dv;
        d = contact(col, xi, xpi, n);
      }
      vi = v_new;
    }
    if (d < thickness) xi += (thickness - d) * n;
    // in contact (any pass); the first pass's first collider and its normal, for the translation correction
    float w = out_con.w;
    if (mod(w, 2.0) == 0.0) w += 1.0;
    if (first && w < 2.0) {
      out_con.xyz = n;
      w += 2.0 * float(c + 1u);
    }
    out_con.w = w;
  }
  x[i].xyz = xi;
  v[i].xyz = vi;
  con[i] = out_con;
}
