#version 450
// One colour of a limiting sweep (sim/strain_limit.cpp's relax; Provot 1995 section 5): each edge of the
// colour longer than detect l0 is shortened to stretch l0, its ends moved along it by their inverse masses,
// and their relative velocity that stretches it further removed. Edges of a colour share no vertex, so they
// run at once; colour after colour is a Gauss-Seidel sweep. The worst l / l0 and the largest move are
// integer maxima of non-negative floats' bits, the corrections an integer count: one result in any order.
#include "contact_layout.glsl"
void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k >= pc.count || sc[kPassDone] != 0u) return;
  uvec4 e = edge[pc.begin + k];
  uint i = e.x, j = e.y;
  float l0 = uintBitsToFloat(e.z);
  vec3 d = x[j].xyz - x[i].xyz;
  float ldetect = pc.detect * l0;
  float len2 = dot(d, d);
  if (len2 <= ldetect * ldetect) return;
  float wi = kinematic(i) ? 0.0 : inv_mass(i), wj = kinematic(j) ? 0.0 : inv_mass(j);
  float w = wi + wj;
  if (w == 0.0) return;
  float len = sqrt(len2);
  atomicMax(sc[kWorst], floatBitsToUint(len / l0));
  vec3 u = d / len;
  float s = (len - pc.stretch * l0) / w;
  x[i].xyz += (s * wi) * u;
  x[j].xyz -= (s * wj) * u;
  atomicMax(sc[kPassLargest], floatBitsToUint(s * max(wi, wj)));
  if ((pc.flags & kVelFromCorrection) != 0u) {
    v[i].xyz += (s * wi / pc.h) * u;
    v[j].xyz -= (s * wj / pc.h) * u;
  }
  float vrel = dot(v[j].xyz - v[i].xyz, u);
  if (vrel > 0.0) {
    v[i].xyz += (vrel * wi / w) * u;
    v[j].xyz -= (vrel * wj / w) * u;
  }
  atomicAdd(sc[kSweepCorrected], 1u);
}
