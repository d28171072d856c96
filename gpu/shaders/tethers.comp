#version 450
// Long-range tethers (sim/tether.h apply_tethers), set pc.mode, one vertex per invocation: a free vertex
// farther than (1 + slack) of its tether length from its anchor goes back onto that sphere and loses its
// outward velocity relative to the anchor. An anchor is a source of its own set (length 0): never moved
// here, so the vertices read it while others are written.
#include "contact_layout.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  if (((uint(tick[0].y) >> pc.mode) & 1u) == 0u) return;  // set not active this tick
  if (kinematic(i) || inv_mass(i) == 0.0) return;
  uvec2 t = teth[pc.mode * pc.n + i];
  uint a = t.x;
  float lmax = pc.detect * uintBitsToFloat(t.y);  // detect carries 1 + tether slack here
  vec3 d = x[i].xyz - x[a].xyz;
  float len2 = dot(d, d);
  if (!(len2 > lmax * lmax)) return;  // also no anchor (infinite length)
  float len = sqrt(len2);
  vec3 u = d / len;
  x[i].xyz = x[a].xyz + lmax * u;
  float outward = dot(v[i].xyz - v[a].xyz, u);
  if (outward > 0.0) v[i].xyz -= outward * u;
}
