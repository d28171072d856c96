#version 450
// Per zoned vertex, in a round that grew: one member more for its root (integer atomics: a count).
layout(local_size_x = 256) in;
#include "zone_layout.glsl"
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= zp.n || zglobal[0] == 0u || zoned[i] == 0u) return;
  atomicAdd(zcount[parent[i]], 1u);
}
