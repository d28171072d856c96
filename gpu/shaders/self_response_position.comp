#version 450
// Per live slot, one position pass (SelfCollision::position_passes' body): a contact closer than the thickness along
// its normal writes each free corner's share of the mass-weighted projection, lambda w_k / m_k n (sum m dx = 0);
// a satisfied or immovable one writes zeros. Its pushed distance (the friction's bound) accumulates in its own slot.
layout(local_size_x = 64) in;
#include "self_response_layout.glsl"

void main() {
  const uint s = gl_GlobalInvocationID.x;
  if (s >= rp.slots) return;
  const vec4 info = slot[s];
  if (info.z == 0.0) return;
  SelfContactOut c;
  contact_of(s, c);
  vec3 r = vec3(0.0);
  for (int k = 0; k < 4; ++k) r += c.w[k] * x[c.v[k]].xyz;
  const float gap = dot(r, c.n.xyz) - rp.thickness;
  if (!(info.x > 0.0) || gap >= 0.0) {
    for (uint k = 0u; k < 4u; ++k) delta[4u * s + k] = vec4(0.0);
    return;
  }
  atomicMax(global_u[2], floatBitsToUint(-gap));
  const float lambda = -gap / info.x;
  for (uint k = 0u; k < 4u; ++k) {
    const float share = c.w[k] * im[c.v[k]];  // a corner of weight 0 does not count in its vertex's mean
    delta[4u * s + k] = vec4((lambda * share) * c.n.xyz, share != 0.0 ? 1.0 : 0.0);
  }
  slot[s].y = info.y - gap;
}
