#version 450
// One workgroup: chebyshev_bound.comp's partial sums in a fixed order into the interval's lower end (the
// uniform translation's Rayleigh quotient, scaled: cheby_layout.glsl's kChebyA). One device gives one result.
#include "step_layout.glsl"
#include "cheby_layout.glsl"
void main() {
  uint t = gl_LocalInvocationID.x;
  vec4 s = vec4(0.0);
  for (uint g = t; g < pc.groups; g += 256) s += vec4(partial[4 * g], partial[4 * g + 1], 0.0, 0.0);
  red[t] = s;
  barrier();
  for (uint k = 128; k > 0; k >>= 1) {
    if (t < k) red[t] += red[t + k];
    barrier();
  }
  // mode: the estimate's scale, as float bits (GpuStepOptions::chebyshev_lo_scale)
  if (t == 0) sc[kChebyA] = uintBitsToFloat(pc.mode) * (red[0].y > 0.0 ? red[0].x / red[0].y : 1.0);
}
