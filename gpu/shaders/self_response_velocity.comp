#version 450
// Per live slot, one velocity pass (SelfCollision::answer_velocities' body; push.pass is the pass): the approaching
// normal velocity removed (perfectly inelastic), Coulomb friction in the first pass bounded by mu times the larger of
// the approach and pushed / h, the impulse scaled down where it would leave a corner faster than the fastest of the
// four before the passes. Each free corner's share, w_k / m_k times the impulse, goes into its entry. The first pass
// also records the largest violation the positions left.
layout(local_size_x = 64) in;
#include "self_response_layout.glsl"

void main() {
  const uint s = gl_GlobalInvocationID.x;
  if (s >= rp.slots) return;
  const vec4 info = slot[s];
  if (info.z == 0.0) return;
  SelfContactOut c;
  contact_of(s, c);
  const vec3 n = c.n.xyz;
  if (push.pass == 0u) {
    vec3 r = vec3(0.0);
    for (int k = 0; k < 4; ++k) r += c.w[k] * x[c.v[k]].xyz;
    const float violation = rp.thickness - dot(r, n);
    if (violation > 0.0) atomicMax(global_u[0], floatBitsToUint(violation));
  }
  for (uint k = 0u; k < 4u; ++k) delta[4u * s + k] = vec4(0.0);
  if (!(info.x > 0.0)) return;
  vec3 vr = vec3(0.0);
  for (int k = 0; k < 4; ++k) vr += c.w[k] * v[c.v[k]].xyz;
  const float vn = dot(vr, n);
  const float approach = max(-vn, 0.0);
  vec3 dv_rel = approach * n;
  if (push.pass == 0u && rp.friction > 0.0 && (approach > 0.0 || info.y > 0.0)) {
    const vec3 vt = vr - vn * n;
    const float vt_len = length(vt);
    const float jn = max(approach, info.y / rp.h);
    if (vt_len > 0.0) dv_rel -= min(vt_len, rp.friction * jn) / vt_len * vt;
  }
  if (dv_rel == vec3(0.0)) return;
  vec3 impulse = dv_rel / info.x;
  float top2 = 0.0;
  for (int k = 0; k < 4; ++k) top2 = max(top2, dot(v0[c.v[k]].xyz, v0[c.v[k]].xyz));
  float scale = 1.0;
  for (int k = 0; k < 4; ++k) {
    const vec3 dv = (c.w[k] * im[c.v[k]]) * impulse, vk = v[c.v[k]].xyz;
    const float a = dot(dv, dv), b = 2.0 * dot(vk, dv), cc = dot(vk, vk) - top2;
    if (!(a > 0.0) || a + b + cc <= 0.0) continue;
    if (cc >= 0.0) {
      if (b > 0.0) scale = 0.0;
      else scale = min(scale, -b / a);
      continue;
    }
    scale = min(scale, (-b + sqrt(b * b - 4.0 * a * cc)) / (2.0 * a));
  }
  impulse *= max(0.0, scale);
  for (uint k = 0u; k < 4u; ++k) {
    const float share = c.w[k] * im[c.v[k]];
    delta[4u * s + k] = vec4(share * impulse, share != 0.0 ? 1.0 : 0.0);
  }
}
