#version 450
// Per element of the source (a violated contact, a crossing pair): its free corners join the zones
// (SelfCollision::join_zone's first half); a vertex newly zoned makes the round grow.
layout(local_size_x = 64) in;
#include "zone_layout.glsl"
void main() {
  uint verts[6];
  uint count;
  if (!element(gl_GlobalInvocationID.x, verts, count)) return;
  for (uint k = 0u; k < count; ++k)
    if (zoned[verts[k]] == 0u) {
      zoned[verts[k]] = 1u;
      zglobal[0] = 1u;
    }
}
