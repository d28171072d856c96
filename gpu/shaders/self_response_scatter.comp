#version 450
// Per live slot: its four entries placed at their vertices (integer atomics; self_response_sort.comp fixes the order).
layout(local_size_x = 64) in;
#include "self_response_layout.glsl"

void main() {
  const uint s = gl_GlobalInvocationID.x;
  if (s >= rp.slots || slot[s].z == 0.0) return;
  SelfContactOut c;
  contact_of(s, c);
  for (uint k = 0u; k < 4u; ++k) vlist[atomicAdd(vcount[c.v[k]], 1u)] = 4u * s + k;
}
