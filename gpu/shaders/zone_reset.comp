#version 450
// Per vertex, once a stage: every vertex its own zone, none zoned (SelfCollision::start_zones).
layout(local_size_x = 256) in;
#include "zone_layout.glsl"
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= zp.n) return;
  parent[i] = i;
  zoned[i] = 0u;
}
