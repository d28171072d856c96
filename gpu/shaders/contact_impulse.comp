#version 450
// After the solve, per vertex resting on a collider (sim/contact_filter.cpp's record_contact_impulses): the
// constraint's normal impulse per unit mass n . (W dv - h f)_i / m_i (friction is tangential: it does not
// enter), and the contact's whole impulse on the vertex, the normal one and the friction's -h c (v_t + dv_t),
// for the translation correction. W dv gathered in adjacency order as spmv.comp, unfiltered.
#include "step_layout.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  vec3 nrm = con0(i).xyz;
  if (nrm == vec3(0.0) || kin[i].w != 0.0) {
    vec[kConOut * pc.n + i] = vec4(0.0);
    return;
  }
  vec3 q = sym_mul(wd[2 * i], wd[2 * i + 1], vec[kDv * pc.n + i].xyz);
  float h2 = pc.h * pc.h;
  for (uint k = csr_off[i]; k < csr_off[i + 1]; ++k) {
    int e = csr[k];
    uint l = uint(e >= 0 ? e : ~e);
    uint o = e >= 0 ? link[l].y : link[l].x;
    vec3 po = vec[kDv * pc.n + o].xyz;
    q -= h2 * sym_mul(link_j[2 * l], link_j[2 * l + 1], po) + pc.h * pc.cd * po;
  }
  float jn = dot(q - pc.h * force[i].xyz, nrm);
  vec3 d = vec[kDv * pc.n + i].xyz;
  vec3 work = jn * nrm - con1(i).w * (con1(i).xyz + d - dot(d, nrm) * nrm);
  vec[kConOut * pc.n + i] = vec4(work, jn / vdata[i].x);
}
