#version 450
// Per vertex: its parent set to its root (parents only ever point to smaller vertices, so the walk ends).
layout(local_size_x = 256) in;
#include "zone_layout.glsl"
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= zp.n) return;
  parent[i] = find_root(i);
}
