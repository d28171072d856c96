#version 450
// Per vertex, after the last round: the zoned vertices held through the velocity passes (as the CPU holds them once
// its zones grew: inverse mass 0), and the zones counted (zoned vertices, zones, the largest).
layout(local_size_x = 256) in;
#include "zone_layout.glsl"
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= zp.n || zoned[i] == 0u) return;
  im[i] = 0.0;
  atomicAdd(zglobal[4], 1u);
  if (parent[i] == i) atomicAdd(zglobal[5], 1u);
  atomicMax(zglobal[6], zstart[parent[i] + 1u] - zstart[parent[i]]);
}
