#version 450
// Per vertex: a slot in its bucket (integer atomics; the order within a bucket is fixed by self_sort.comp).
layout(local_size_x = 256) in;
#include "self_layout.glsl"

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= sp.n) return;
  sorted[atomicAdd(bucket_count[uint(vcell[i].w)], 1u)] = i;
}
