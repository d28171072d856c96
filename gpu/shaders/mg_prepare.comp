#version 450
// Level 0 of the multigrid: W_ii as assemble.comp left it (friction included) with a resting contact's stiff
// normal block (100 tr W_ii n n^T, as sim/multigrid_solver.cpp tells its V-cycle), and the kinematic flag.
#include "step_layout.glsl"
#include "mg_layout.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  vec4 w0 = wd[2 * i], w1 = wd[2 * i + 1];
  vec3 nrm = con0(i).xyz;
  float t = 100.0 * (w0.x + w0.w + w1.y);
  w0 += t * vec4(nrm.x * nrm.x, nrm.x * nrm.y, nrm.x * nrm.z, nrm.y * nrm.y);
  w1 += t * vec4(nrm.y * nrm.z, nrm.z * nrm.z, 0.0, 0.0);
  md[2 * i] = w0;
  md[2 * i + 1] = vec4(w1.xy, kin[i].w != 0.0 ? 1.0 : 0.0, 0.0);
}
