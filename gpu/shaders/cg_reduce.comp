#version 450
// One workgroup sums the partials in a fixed order and makes the CG scalars (as sim/conjugate_gradient.cpp):
// mode 0 after cg_start (delta, |b|, residual; done when already converged), mode 1 after cg_dot_dq (alpha;
// done when d.q <= 0), mode 2 after cg_update (beta, the residual, one more iteration; done at tolerance).
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
  if (pc.mode == 0) {
    sc[kDelta] = sum.x;
    sc[kBNorm] = max(sqrt(sum.y), 1e-30);
    sc[kRes] = sqrt(sum.z) / sc[kBNorm];
    sc[kIter] = 0.0;
    sc[kAlpha] = 0.0;
    sc[kBeta] = 0.0;
    sc[kDone] = sc[kRes] > pc.tol ? 0.0 : 1.0;
  } else if (sc[kDone] != 0.0) {
    return;
  } else if (pc.mode == 1) {
    sc[kDq] = sum.x;
    if (!(sum.x > 0.0)) sc[kDone] = 1.0;
    else sc[kAlpha] = sc[kDelta] / sum.x;
  } else {
    sc[kBeta] = sum.x / sc[kDelta];
    sc[kDelta] = sum.x;
    sc[kRes] = sqrt(sum.y) / sc[kBNorm];
    sc[kIter] += 1.0;
    if (!(sc[kRes] > pc.tol)) sc[kDone] = 1.0;
  }
}
