#version 450
// One workgroup: the vertices' exclusive prefix sum of their entries (vstart, n + 1), each vertex's cursor set to its
// start. Each invocation sums a contiguous chunk, the chunk totals are scanned in shared memory: one order.
layout(local_size_x = 256) in;
#include "self_response_layout.glsl"
shared uint chunk_total[256];

void main() {
  const uint k = gl_LocalInvocationID.x;
  const uint per = (rp.n + 255u) / 256u;
  const uint lo = min(k * per, rp.n), hi = min(lo + per, rp.n);
  uint s = 0u;
  for (uint i = lo; i < hi; ++i) s += vcount[i];
  chunk_total[k] = s;
  barrier();
  if (k == 0u) {
    uint run = 0u;
    for (uint j = 0u; j < 256u; ++j) {
      const uint t = chunk_total[j];
      chunk_total[j] = run;
      run += t;
    }
    vstart[rp.n] = run;
  }
  barrier();
  uint run = chunk_total[k];
  for (uint i = lo; i < hi; ++i) {
    const uint c = vcount[i];
    vstart[i] = run;
    vcount[i] = run;
    run += c;
  }
}
