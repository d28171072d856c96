#version 450
// find_resting_contacts (sim/contact_filter.cpp) per vertex: over the colliders in the CPU's order (those that
// follow a device after the others), the first within reach that the vertex does not leave makes its contact,
// a nearer still one replaces it; N from the last step's normal impulse (kConOut's w, which this step has not
// overwritten yet) or gravity's share on first contact; a contact that had to hold the vertex down lets go.
// Writes kCon0 and kCon1 (zero where none) and, in kConOut's x, 1 where it found one: the landing filter
// (landing_filter.comp) reads its neighbours' marks before contact_impulse.comp overwrites the slot.
#include "resting_layout.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  bool had = vec[kCon0 * pc.n + i].xyz != vec3(0.0);  // the last step kept a contact here
  float last_impulse = vec[kConOut * pc.n + i].w;
  vec4 c0 = vec4(0.0), c1 = vec4(0.0);
  bool found = false;
  float nearest = 0.0;
  float m = vdata[i].x;
  float reach = kReach * pc.thickness;
  bool free_vertex = pc.enabled != 0u && m > 0.0 && !isinf(m) && kin[i].w == 0.0 && v[i].w == 0.0;
  // A contact that had to hold the vertex down last step lets it go (the cloth is lifting off).
  if (had && last_impulse < 0.0) free_vertex = false;
  vec3 p = x[i].xyz, vel = v[i].xyz;
  uint ncol = uint(tick[0].x);
  for (int followers = 0; followers < 2 && free_vertex; ++followers)
    for (uint c = 0u; c < ncol; ++c) {
      Col col = load(c);
      bool follows = col.follows >= 0;
      if (follows != (followers == 1)) continue;
      if (col.shape != kPlane) {  // collider_bounds, widened by the reach
        vec3 e;
        if (col.shape == kSphere) {
          e = vec3(col.radius);
        } else if (col.shape == kCapsule) {
          e = abs(rot(col.q, vec3(0.0, 1.0, 0.0))) * col.half_length + vec3(col.radius);
        } else {
          e = abs(rot(col.q, vec3(1.0, 0.0, 0.0))) * col.he.x + abs(rot(col.q, vec3(0.0, 1.0, 0.0))) * col.he.y +
              abs(rot(col.q, vec3(0.0, 0.0, 1.0))) * col.he.z;
        }
        vec3 lo = col.p - e - reach, hi = col.p + e + reach;
        if (any(lessThan(p, lo)) || any(greaterThan(p, hi))) continue;
      }
      vec3 nrm;
      float d = distance_now(col, p, nrm);
      if (!(d < reach)) continue;
      if (follows && d < 0.0) continue;  // inside a device's collider: left to leave
      vec3 rel = vel - (col.lin + cross(col.ang, p - col.p));
      float vn = dot(rel, nrm);
      if (vn > kLeaving) continue;
      float pressed = had ? last_impulse : pc.h * max(0.0, -dot(pc.gravity.xyz, nrm));
      vec3 slip = rel - vn * nrm;
      float speed = length(slip);
      float mu = speed <= kStick ? col.mu_s : col.mu_k;
      float friction = mu * m * pressed / max(speed, kStick);  // h c = mu N h / max(|v_t|, v_stick)
      if (!found || (d < nearest && !follows)) {  // two colliders: the nearer holds it
        found = true;
        nearest = d;
        c0 = vec4(nrm, -vn);
        c1 = vec4(slip, friction);
      }
    }
  vec[kCon0 * pc.n + i] = c0;
  vec[kCon1 * pc.n + i] = c1;
  vec[kConOut * pc.n + i] = vec4(found ? 1.0 : 0.0, 0.0, 0.0, 0.0);
}
