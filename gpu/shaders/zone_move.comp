#version 450
// Per vertex, in a round that grew (SelfCollision::move_zones): a zoned vertex moved rigidly with its zone from the
// step's start at the zone's mass-weighted mean velocity, which it takes; shifted says whether it moved (the next
// crossing round looks only at pairs with such a corner).
layout(local_size_x = 256) in;
#include "zone_layout.glsl"
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= zp.n || zglobal[0] == 0u) return;
  if (i == 0u) atomicAdd(zglobal[1u + zpush.source], 1u);
  if (zoned[i] == 0u) {
    shifted[i] = 0u;
    return;
  }
  const vec4 s = zsum[parent[i]];
  precise const vec3 vbar = s.xyz / s.w;
  precise const vec3 step = zp.h * vbar;
  precise const vec3 to = xp[i].xyz + step;
  shifted[i] = any(notEqual(to, x[i].xyz)) ? 1u : 0u;
  x[i] = vec4(to, 0.0);
  v[i] = vec4(vbar, 0.0);
}
