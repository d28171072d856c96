#version 450
// Per element of the source: its corners' zones merged (join_zone's second half), the larger root hooked under the
// smaller with atomicMin (a hook another invocation overwrote is found again by the next call); with check, the
// unions still unfinished after the last call are counted instead.
layout(local_size_x = 64) in;
#include "zone_layout.glsl"
void main() {
  uint verts[6];
  uint count;
  if (!element(gl_GlobalInvocationID.x, verts, count)) return;
  uint r0 = find_root(verts[0]);
  for (uint k = 1u; k < count; ++k) {
    const uint r = find_root(verts[k]);
    if (r == r0) continue;
    if (zpush.check != 0u) {
      atomicAdd(zglobal[3], 1u);
      return;
    }
    atomicMin(parent[max(r, r0)], min(r, r0));
    zglobal[0] = 1u;
    r0 = min(r, r0);
  }
}
