#version 450
// Per vertex: how far it is from its hash position (the query's growth) and, in the first round, whether the
// corrections moved it; per edge: its length now (the query's growth: an edge crossing a triangle has an end
// within its length of the triangle's box). Maxima of non-negative floats as integer maxima of their bits.
layout(local_size_x = 256) in;
#include "crossing_layout.glsl"

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (!round_needed()) return;
  if (i < sp.n) {
    const vec3 d = x[i].xyz - x0[i].xyz;
    if (cpush.round == 0u) shifted[i] = any(notEqual(x[i].xyz, x0[i].xyz)) ? 1u : 0u;
    const float disp = length(d);
    if (disp >= 0.0 && disp < 1e30) atomicMax(cglobal[1], floatBitsToUint(disp));
  }
  if (i < sp.nedge) {
    const float len = length(x[edge[i].x].xyz - x[edge[i].y].xyz);
    if (len >= 0.0 && len < 1e30) atomicMax(cglobal[0], floatBitsToUint(len));
  }
}
