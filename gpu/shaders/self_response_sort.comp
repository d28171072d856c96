#version 450
// Per vertex: its entries sorted by slot (insertion sort; a vertex is in a few dozen contacts at most), so that its
// sums run in one order whatever order the scatter's atomics placed them in.
layout(local_size_x = 256) in;
#include "self_response_layout.glsl"

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= rp.n) return;
  const uint lo = vstart[i], hi = vstart[i + 1u];
  for (uint k = lo + 1u; k < hi; ++k) {
    const uint e = vlist[k];
    uint j = k;
    while (j > lo && vlist[j - 1u] > e) {
      vlist[j] = vlist[j - 1u];
      --j;
    }
    vlist[j] = e;
  }
}
