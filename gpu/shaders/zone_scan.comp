#version 450
// One workgroup, in a round that grew: the roots' exclusive prefix sum of their members (zstart, n + 1), each root's
// cursor set to its start. Each invocation sums a contiguous chunk, the chunk totals scanned in shared memory.
layout(local_size_x = 256) in;
#include "zone_layout.glsl"
shared uint chunk_total[256];
void main() {
  if (zglobal[0] == 0u) return;
  const uint k = gl_LocalInvocationID.x;
  const uint per = (zp.n + 255u) / 256u;
  const uint lo = min(k * per, zp.n), hi = min(lo + per, zp.n);
  uint s = 0u;
  for (uint i = lo; i < hi; ++i) s += zcount[i];
  chunk_total[k] = s;
  barrier();
  if (k == 0u) {
    uint run = 0u;
    for (uint j = 0u; j < 256u; ++j) {
      const uint t = chunk_total[j];
      chunk_total[j] = run;
      run += t;
    }
    zstart[zp.n] = run;
  }
  barrier();
  uint run = chunk_total[k];
  for (uint i = lo; i < hi; ++i) {
    const uint c = zcount[i];
    zstart[i] = run;
    zcount[i] = run;
    run += c;
  }
}
