#version 450
// Per bucket: its vertices sorted by index (insertion sort; buckets hold a few vertices), so that the
// narrow phase visits them in one order whatever order the scatter's atomics placed them in.
layout(local_size_x = 256) in;
#include "self_layout.glsl"

void main() {
  const uint b = gl_GlobalInvocationID.x;
  if (b > sp.bucket_mask) return;
  const uint lo = bucket_start[b], hi = bucket_start[b + 1u];
  for (uint k = lo + 1u; k < hi; ++k) {
    const uint v = sorted[k];
    uint j = k;
    while (j > lo && sorted[j - 1u] > v) {
      sorted[j] = sorted[j - 1u];
      --j;
    }
    sorted[j] = v;
  }
}
