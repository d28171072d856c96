#version 450
// Per vertex: its travel over the step, its cell and bucket, the bucket's count (integer atomics: a count
// is the same in any order); per edge: its length. The largest travel and edge length are atomic maxima of
// non-negative floats' bits (a maximum is the same in any order).
layout(local_size_x = 256) in;
#include "self_layout.glsl"

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < sp.n) {
    const float t = length(x[i].xyz - xp[i].xyz);
    travel[i] = t;
    if (t >= 0.0 && !isinf(t)) atomicMax(global_u[0], floatBitsToUint(t));
    const ivec3 c = cell_of(x[i].xyz);
    const uint b = bucket_of(c);
    vcell[i] = ivec4(c, int(b));
    atomicAdd(bucket_count[b], 1u);
  }
  if (i < sp.nedge) {
    const float l = length(x[edge[i].y].xyz - x[edge[i].x].xyz);
    if (l >= 0.0 && !isinf(l)) atomicMax(global_u[1], floatBitsToUint(l));
  }
}
