#version 450
// One workgroup: the buckets' exclusive prefix sum (bucket_start, buckets + 1 entries), and each bucket's
// cursor for the scatter set to its start. Each invocation sums a contiguous chunk, the chunk totals are
// scanned in shared memory, then each chunk is written: one order, no atomics.
layout(local_size_x = 256) in;
#include "self_layout.glsl"
shared uint chunk_total[256];

void main() {
  const uint k = gl_LocalInvocationID.x;
  const uint buckets = sp.bucket_mask + 1u;
  const uint per = (buckets + 255u) / 256u;
  const uint lo = min(k * per, buckets), hi = min(lo + per, buckets);
  uint s = 0u;
  for (uint b = lo; b < hi; ++b) s += bucket_count[b];
  chunk_total[k] = s;
  barrier();
  if (k == 0u) {
    uint run = 0u;
    for (uint j = 0u; j < 256u; ++j) {
      const uint t = chunk_total[j];
      chunk_total[j] = run;
      run += t;
    }
    bucket_start[buckets] = run;
  }
  barrier();
  uint run = chunk_total[k];
  for (uint b = lo; b < hi; ++b) {
    const uint c = bucket_count[b];
    bucket_start[b] = run;
    bucket_count[b] = run;
    run += c;
  }
}
