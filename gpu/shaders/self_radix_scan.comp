#version 450
// The radix sort's second step, one workgroup: the exclusive prefix sum of hist in (digit, chunk) order, so
// that each chunk's codes of one digit go after every lower digit's and after the earlier chunks' of the same
// digit (a stable sort). Each invocation sums a contiguous range, the totals are scanned in shared memory.
layout(local_size_x = 256) in;
#include "self_layout.glsl"
shared uint range_total[256];

void main() {
  const uint k = gl_LocalInvocationID.x;
  const uint total = 32u * sp.chunks;
  const uint per = (total + 255u) / 256u;
  const uint lo = min(k * per, total), hi = min(lo + per, total);
  uint s = 0u;
  for (uint b = lo; b < hi; ++b) s += hist[b];
  range_total[k] = s;
  barrier();
  if (k == 0u) {
    uint run = 0u;
    for (uint j = 0u; j < 256u; ++j) {
      const uint t = range_total[j];
      range_total[j] = run;
      run += t;
    }
  }
  barrier();
  uint run = range_total[k];
  for (uint b = lo; b < hi; ++b) {
    const uint c = hist[b];
    hist[b] = run;
    run += c;
  }
}
