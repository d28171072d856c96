#version 450
// leave_flat_landings (sim/landing_filter.cpp) per vertex after resting_contacts.comp: a contact whose vertex
// came more than the thickness toward its collider last step is kept only where a free neighbour without a
// contact rises steeply above it and more than it fell, or where a device's collider is within reach;
// otherwise dropped (left to the pass after the step). The neighbours' marks (kConOut's x) are read only.
#include "resting_layout.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  vec3 nrm = vec[kCon0 * pc.n + i].xyz;
  if (nrm == vec3(0.0)) return;
  vec3 p = x[i].xyz;
  if (!(dot(p - xl[i].xyz, nrm) < -pc.thickness)) return;  // not just landed: kept
  bool keep = false;
  for (uint k = csr_off[i]; k < csr_off[i + 1u] && !keep; ++k) {
    int e = csr[k];
    uint l = uint(e >= 0 ? e : ~e);
    uint j = e >= 0 ? link[l].y : link[l].x;
    if (kin[j].w != 0.0 || vec[kConOut * pc.n + j].x != 0.0) continue;  // a free neighbour
    vec3 d = x[j].xyz - p;
    float rise = dot(d, nrm);
    float fall = -dot(x[j].xyz - xl[j].xyz, nrm);
    if (rise > kSteep * length(d) && rise > fall) keep = true;
  }
  uint ncol = uint(tick[0].x);
  for (uint c = 0u; c < ncol && !keep; ++c) {
    Col col = load(c);
    vec3 n;
    if (col.follows >= 0 && distance_now(col, p, n) < kReach * pc.thickness) keep = true;
  }
  if (!keep) {
    vec[kCon0 * pc.n + i] = vec4(0.0);
    vec[kCon1 * pc.n + i] = vec4(0.0);
  }
}
