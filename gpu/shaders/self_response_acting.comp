#version 450
// Per vertex, after a pass's per-contact kernel: how many of its entries act this pass (integer sum, in vcount, free
// once the table is sorted). self_response_move.comp scales each contact by its busiest corner's count.
layout(local_size_x = 256) in;
#include "self_response_layout.glsl"

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= rp.n) return;
  uint acting = 0u;
  for (uint k = vstart[i]; k < vstart[i + 1u]; ++k) acting += delta[vlist[k]].w != 0.0 ? 1u : 0u;
  vcount[i] = acting;
}
