#version 450
// Per link: spring force and Jacobian block, as sim/force_field.cpp's link pass (Kang & Cho Eq. 1, 21-22,
// 26 and 13): tension k (l - l0); J = k u u^T + max(T, 0)/l (I - u u^T) (the stabilised derivative drops a
// compressed spring's transverse term); relative damping cd (v_j - v_i) and viscosity h J (v_j - v_i).
// Volino's triangles give their edges' tension instead (volino_triangles.comp), summed in triangle order.
// A structural link the corrections crushed at a landing pushes no harder than at kBuckleStrain
// (buckled_tension, sim/buckled_links.h; its Jacobian unchanged), as the CPU's mg step caps it.
#include "step_layout.glsl"
#include "force_layout.glsl"
void main() {
  uint l = gl_GlobalInvocationID.x;
  if (l >= pc.nlink) return;
  uint i = link[l].x, j = link[l].y;
  vec3 d = x[j].xyz - x[i].xyz;
  float len = length(d);
  float inv = len > 1e-12 ? 1.0 / len : 0.0;
  vec3 u = d * inv;
  float t = linkp[l].x * (len - linkp[l].y);
  const float kBuckleStrain = 0.02;  // sim/buckled_links.h's (gpu_integrator.cpp asserts it)
  if (l < fp.nedge && link_buckled(l)) t = max(t, -linkp[l].x * kBuckleStrain * linkp[l].y);
  if ((fp.flags & kVolino) != 0u && l < fp.nedge) {
    t = 0.0;
    for (uint k = lg_off[l]; k < lg_off[l + 1]; ++k) t += elem_force[lg[k]].x;
  }
  vec3 dvel = v[j].xyz - v[i].xyz;
  vec3 f = t * u + pc.cd * dvel;
  float tr = t > 0.0 ? t * inv : 0.0;
  float a = linkp[l].x - tr;
  vec4 j0 = vec4(a * u.x * u.x + tr, a * u.x * u.y, a * u.x * u.z, a * u.y * u.y + tr);
  vec4 j1 = vec4(a * u.y * u.z, a * u.z * u.z + tr, 0.0, 0.0);
  f += pc.h * sym_mul(j0, j1, dvel);
  link_f[l] = vec4(f, 0.0);
  link_j[2 * l] = j0;
  link_j[2 * l + 1] = j1;
}
