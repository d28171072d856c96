#version 450
// Stage 6 (sim/plasticity.cpp's update_plasticity, Volino 1995 sec. 3.4) on the GPU, at the head of the step's
// submit: the positions uploaded are those the last tick's corrections (stages 4-5c, on the CPU) left, the
// shape the CPU's stage 6 reads, so this is the last tick's update, run before this tick's forces read the
// rest state. Per hinge e (< nhinge): the plastic rest angle relaxes toward the original one, then is pulled
// to within the yield angle of the current angle; per triangle t (< ntri): the plastic strains relax toward 0,
// then are pulled to within the yield strains of the current Eq. 4 strains. Skipped on the first tick (the
// gate after the plastic state is 0): the CPU has no update before its first step.
#include "step_layout.glsl"
#include "force_layout.glsl"

const float kInvSqrt2 = 0.70710678;

// Keeps |e - p| <= yield by moving p (return_map).
float return_map(float e, float p, float yield) {
  if (e - p > yield) return e - yield;
  if (p - e > yield) return e + yield;
  return p;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint nplastic = fp.nhinge + 3 * fp.ntri;  // the plastic state's length (gpu_force_stage.cpp)
  if (plastic[nplastic] == 0.0) return;  // the gate: 0 on the first tick
  if ((fp.flags & kPlasticHinges) != 0u && i < fp.nhinge) {
    float rest = plastic[i];
    rest += (hinge_k[fp.nhinge + i] - rest) * (1.0 - exp(-pc.h / fp.plasticity.x));
    uvec4 hv = hinge[i];
    vec3 p0 = x[hv.x].xyz, p1 = x[hv.y].xyz, p2 = x[hv.z].xyz, p3 = x[hv.w].xyz;
    vec3 ed = p1 - p0;  // hinge_angle, as weave_hinges.comp
    float len = length(ed);
    vec3 nA = cross(ed, p2 - p0), nB = cross(p3 - p0, ed);
    if (len > 1e-12 && dot(nA, nA) > 1e-24 && dot(nB, nB) > 1e-24) {
      float theta = atan(-dot(cross(nA, nB), ed / len), dot(nA, nB));
      rest = return_map(theta, rest, hinge_k[2 * fp.nhinge + i]);
    }
    plastic[i] = rest;
  }
  if ((fp.flags & kPlasticStrain) != 0u && i < fp.ntri) {
    uvec3 c = tri[i].xyz;
    vec4 cu4 = tri_coef[2 * i], cv4 = tri_coef[2 * i + 1];
    vec3 U = cu4.x * x[c.x].xyz + cu4.y * x[c.y].xyz + cu4.z * x[c.z].xyz;
    vec3 V = cv4.x * x[c.x].xyz + cv4.y * x[c.y].xyz + cv4.z * x[c.z].xyz;
    float e[3] = float[3](length(U) - 1.0, length(V) - 1.0, kInvSqrt2 * (length(U + V) - length(U - V)));
    float keep = exp(-pc.h / fp.plasticity.y);
    uint pe = fp.nhinge + 3 * i;
    plastic[pe] = return_map(e[0], plastic[pe] * keep, fp.plasticity.z);
    plastic[pe + 1] = return_map(e[1], plastic[pe + 1] * keep, fp.plasticity.z);
    plastic[pe + 2] = return_map(e[2], plastic[pe + 2] * keep, fp.plasticity.w);
  }
}
