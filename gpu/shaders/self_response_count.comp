#version 450
// Per slot: whether it holds a contact, its bounded sum w^2 / m (SelfCollision::effective_inv_mass: at least half the
// largest |w_k| / m_k, so that no vertex moves more than twice the gap), and one entry per corner counted at its vertex
// (integer atomics: a count is the same in any order).
layout(local_size_x = 64) in;
#include "self_response_layout.glsl"

void main() {
  const uint s = gl_GlobalInvocationID.x;
  if (s >= rp.slots) return;
  SelfContactOut c;
  if (!contact_of(s, c)) {
    slot[s] = vec4(0.0);
    return;
  }
  float sum = 0.0, mobility = 0.0;
  for (int k = 0; k < 4; ++k) {
    const float m = im[c.v[k]];
    sum += c.w[k] * c.w[k] * m;
    mobility = max(mobility, abs(c.w[k]) * m);
  }
  slot[s] = vec4(max(sum, 0.5 * mobility), 0.0, 1.0, 0.0);
  atomicAdd(global_u[1], 1u);
  for (int k = 0; k < 4; ++k) atomicAdd(vcount[c.v[k]], 1u);
}
