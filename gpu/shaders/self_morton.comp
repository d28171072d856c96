#version 450
// Per edge: the 30-bit Morton code of its centre in the finite vertices' bounds (self_prepare's maxima), into
// the radix sort's first half with the edge's index. An edge with an end not finite sorts last.
layout(local_size_x = 256) in;
#include "self_layout.glsl"

uint spread_bits(uint v) {  // 10 bits to every third of 30
  v = (v * 0x00010001u) & 0xFF0000FFu;
  v = (v * 0x00000101u) & 0x0F00F00Fu;
  v = (v * 0x00000011u) & 0xC30C30C3u;
  v = (v * 0x00000005u) & 0x49249249u;
  return v;
}

void main() {
  const uint e = gl_GlobalInvocationID.x;
  if (e >= sp.nedge) return;
  const uint i0 = edge[e].x, i1 = edge[e].y;
  uint code = 0x3fffffffu;
  if (travel[i0] >= 0.0 && travel[i1] >= 0.0) {
    const vec3 hi = vec3(from_order_bits(global_u[6]), from_order_bits(global_u[7]), from_order_bits(global_u[8]));
    const vec3 lo = vec3(from_order_bits(~global_u[9]), from_order_bits(~global_u[10]), from_order_bits(~global_u[11]));
    const vec3 u = clamp((0.5 * (x[i0].xyz + x[i1].xyz) - lo) / max(hi - lo, vec3(1e-12)), 0.0, 1.0);
    const uvec3 q = uvec3(min(u * 1024.0, vec3(1023.0)));
    code = (spread_bits(q.x) << 2) | (spread_bits(q.y) << 1) | spread_bits(q.z);
  }
  mkey[e] = code;
  mval[e] = e;
}
