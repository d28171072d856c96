#version 450
// Per root, in a round that grew: its members sorted by vertex, then its momentum and mass summed in that order, as
// SelfCollision::move_zones sums them (vertex order).
layout(local_size_x = 64) in;
#include "zone_layout.glsl"
void main() {
  const uint r = gl_GlobalInvocationID.x;
  if (r >= zp.n || zglobal[0] == 0u || zoned[r] == 0u || parent[r] != r) return;
  const uint lo = zstart[r], hi = zstart[r + 1u];
  for (uint a = lo + 1u; a < hi; ++a) {
    const uint key = zlist[a];
    uint b = a;
    for (; b > lo && zlist[b - 1u] > key; --b) zlist[b] = zlist[b - 1u];
    zlist[b] = key;
  }
  precise vec3 momentum = vec3(0.0);
  precise float m = 0.0;
  for (uint a = lo; a < hi; ++a) {
    const uint i = zlist[a];
    precise const vec3 p = mass[i] * v[i].xyz;
    momentum += p;
    m += mass[i];
  }
  zsum[r] = vec4(momentum, m);
}
