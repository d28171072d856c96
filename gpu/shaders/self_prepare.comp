#version 450
// Per vertex: its travel over the step, its cell and bucket, the bucket's count (integer atomics: a count
// is the same in any order); per edge: its length. The largest travel and edge length are atomic maxima of
// non-negative floats' bits, the finite vertices' bounds maxima of order_bits (a maximum is the same in any
// order). Vertices not finite are counted.
layout(local_size_x = 256) in;
#include "self_layout.glsl"

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < sp.n) {
    const vec3 p = x[i].xyz, q = xp[i].xyz;
    const float t = length(p - q);
    // A vertex not finite now or at the step's start (comparisons, false for NaN, rather than isnan, which a
    // driver's fast math may fold away): travel -1, which the narrow phase skips, and counted.
    const bool finite = all(lessThan(abs(p), vec3(1e30))) && all(lessThan(abs(q), vec3(1e30))) && t < 1e30;
    travel[i] = finite ? t : -1.0;
    if (finite) {
      atomicMax(global_u[0], floatBitsToUint(t));
      for (int k = 0; k < 3; ++k) {  // the LBVH's bounds (a maximum is the same in any order)
        atomicMax(global_u[6 + k], order_bits(p[k]));
        atomicMax(global_u[9 + k], ~order_bits(p[k]));
      }
    } else {
      atomicAdd(global_u[3], 1u);
    }
    const ivec3 c = cell_of(x[i].xyz);
    const uint b = bucket_of(c);
    vcell[i] = ivec4(c, int(b));
    atomicAdd(bucket_count[b], 1u);
  }
  if (i < sp.nedge) {
    const float l = length(x[edge[i].y].xyz - x[edge[i].x].xyz);
    if (l < 1e30) atomicMax(global_u[1], floatBitsToUint(l));  // false for NaN
  }
}
