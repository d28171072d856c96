#version 450
// The grip's friction on the tick it lets go (sim/release_grip.h take_release_throw), on the device between
// the end of the step and stage 4, so that the tick is one submit: one invocation per freed vertex, each
// entry its own vertex (no two entries share one). The CPU packs the freed vertices that are free, each with
// v_start + h g: where the solve gave the vertex more speed than that, it keeps that; where it slowed it, the
// solve's. One on a contact the solve kept this tick (v's w, end_step.comp's: the resting search ran in this
// submit, so the CPU does not know it yet) is skipped, as take_release_throw skips it.
#include "contact_layout.glsl"
layout(std430, binding = 10) readonly buffer Freed { vec4 freed[]; };  // xyz: v_start + h g; w: vertex bits

void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k >= uint(tick[0].z)) return;
  vec4 e = freed[k];
  uint i = floatBitsToUint(e.w);
  if (v[i].w != 0.0) return;  // on a kept contact: its friction is the contact's
  vec3 vi = v[i].xyz;
  if (dot(vi, vi) <= dot(e.xyz, e.xyz)) return;  // the grip takes speed, never gives it
  v[i].xyz = e.xyz;
}
