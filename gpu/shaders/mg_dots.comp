#version 450
// The V-cycle's last sweep on level 0 (x[src], 0: from zero, plus the prolongation from slot mode >> 8 when
// not 0), its result z into CG's slot dst, filtered (kinematic vertices zero, a resting contact's normal
// component removed), and the partial sums cg_reduce reads: after cg_start (dst kD) r.z, b.b and r.r; after
// cg_update (dst kS) r.z and r.r.
#include "step_layout.glsl"
#include "mg_layout.glsl"
#include "mg_cycle.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 mine = vec4(0.0);
  if (i < pc.n && (pc.dst == kD || sc[kDone] == 0.0)) {
    vec3 z = mg_sweep(0u, i, pc.src, pc.mode >> 8);
    z = kin[i].w != 0.0 ? vec3(0.0) : contact_project(i, z);
    vec3 r = vec[kR * pc.n + i].xyz;
    vec[pc.dst * pc.n + i] = vec4(z, 0.0);
    vec3 b = vec[kB * pc.n + i].xyz;
    mine = pc.dst == kD ? vec4(dot(r, z), dot(b, b), dot(r, r), 0.0) : vec4(dot(r, z), dot(r, r), 0.0, 0.0);
  }
  group_sums(mine);
}
