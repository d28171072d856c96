#version 450
// The free-flight translation correction's sums (sim/translation_correction.cpp), per workgroup in a fixed
// tree (group_sums, no atomics): h f_i - (m_i + h c_i) dv_i, plus a kept contact's impulse (kConOut, zero
// elsewhere: the CPU adds the filter's work), and m_i + h c_i. A kinematic vertex makes its group's mass
// -inf, and so the whole sum: the correction does nothing with one, as on the CPU.
#include "step_layout.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 mine = vec4(0.0);
  if (i < pc.n) {
    float mi = vdata[i].x + pc.h * force[i].w;
    mine = vec4(pc.h * force[i].xyz - mi * vec[kDv * pc.n + i].xyz + vec[kConOut * pc.n + i].xyz, mi);
    if (kin[i].w != 0.0) mine.w = uintBitsToFloat(0xff800000u);
  }
  group_sums(mine);
}
