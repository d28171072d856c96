#version 450
// One workgroup sums translation_sums' partials in a fixed order and makes the correction c = rhs / mass
// (correct_free_translation; none with a kinematic vertex or no mass), less its components along the last
// tick's contact normals when a contact's static friction stopped a vertex (ContactAxes::remove_from).
#include "step_layout.glsl"
void main() {
  uint t = gl_LocalInvocationID.x;
  vec4 s = vec4(0.0);
  for (uint g = t; g < pc.groups; g += 256) s += vec4(partial[4 * g], partial[4 * g + 1], partial[4 * g + 2], partial[4 * g + 3]);
  red[t] = s;
  barrier();
  for (uint k = 128; k > 0; k >>= 1) {
    if (t < k) red[t] += red[t + k];
    barrier();
  }
  if (t != 0) return;
  vec4 sum = red[0];
  if (!(sum.w > 0.0)) {
    sc[kCorrOn] = 0.0;
    return;
  }
  vec3 c = sum.xyz / sum.w;
  if (sc[kAxesStuck] != 0.0) {
    vec3 r = c;
    uint count = uint(sc[kAxesCount]);
    for (uint k = 0; k < count && k < 3u; ++k) {
      vec3 a = vec3(sc[kAxes + 4 * k], sc[kAxes + 4 * k + 1], sc[kAxes + 4 * k + 2]);
      r -= dot(r, a) * a;
    }
    c -= r;
  }
  sc[kCorr] = c.x;
  sc[kCorr + 1] = c.y;
  sc[kCorr + 2] = c.z;
  sc[kCorrOn] = 1.0;
}
