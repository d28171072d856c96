#version 450
// One colour of a limiting sweep (sim/strain_limit.cpp's relax; Provot 1995 section 5): each edge of the
// colour longer than detect l0 is shortened to stretch l0, its ends moved along it by their inverse masses,
// and their relative velocity that stretches it further removed. Edges of a colour share no vertex, so they
// run at once; colour after colour is a Gauss-Seidel sweep. The worst l / l0 and the largest move are
// integer maxima of non-negative floats' bits, the corrections an integer count: one result in any order.
// With kWelded (a world with seams), relax_welded: a welded end moves its whole ring with the ring's inverse
// mass (the colouring keeps each ring to one edge of a colour), an edge inside one ring is left alone.
#include "contact_layout.glsl"

// Moves vertex a, and with kWelded the rest of its ring, by dx and dv.
void move_ring(uint a, vec3 dx, vec3 dv) {
  uint k = a;
  for (uint guard = 0u; guard < pc.n; ++guard) {
    x[k].xyz += dx;
    v[k].xyz += dv;
    if ((pc.flags & kWelded) == 0u) return;
    k = weld[k].x;
    if (k == a) return;
  }
}

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
  if ((pc.flags & kWelded) != 0u) {
    bool weld_i = weld[i].x != i, weld_j = weld[j].x != j;
    if (weld_i && weld_j && weld[i].y == weld[j].y) return;  // one welded body: no length to change
    if (weld_i) wi = uintBitsToFloat(weld[i].z);
    if (weld_j) wj = uintBitsToFloat(weld[j].z);
  }
  float w = wi + wj;
  if (w == 0.0) return;
  float len = sqrt(len2);
  atomicMax(sc[kWorst], floatBitsToUint(len / l0));
  vec3 u = d / len;
  float s = (len - pc.stretch * l0) / w;
  atomicMax(sc[kPassLargest], floatBitsToUint(s * max(wi, wj)));
  if ((pc.flags & kWelded) != 0u) {
    vec3 dxi = (s * wi) * u, dxj = (-s * wj) * u;
    vec3 dvi = (pc.flags & kVelFromCorrection) != 0u ? dxi / pc.h : vec3(0.0);
    vec3 dvj = (pc.flags & kVelFromCorrection) != 0u ? dxj / pc.h : vec3(0.0);
    float vrel = dot(v[j].xyz + dvj - v[i].xyz - dvi, u);  // the stretching relative velocity, removed
    if (vrel > 0.0) {
      dvi += (vrel * wi / w) * u;
      dvj -= (vrel * wj / w) * u;
    }
    move_ring(i, dxi, dvi);
    move_ring(j, dxj, dvj);
    atomicAdd(sc[kSweepCorrected], 1u);
    return;
  }
  x[i].xyz += (s * wi) * u;
  x[j].xyz -= (s * wj) * u;
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
