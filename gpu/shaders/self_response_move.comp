#version 450
// Per vertex, after self_response_position or self_response_velocity and self_response_acting: its contacts'
// corrections, summed in slot order, each divided by the number of contacts acting on the busiest of its contact's
// moving corners, added to x (push.target 0) or v (1). One factor for all four corners of a contact keeps its
// momentum (sum m dx = 0, sum m dv = 0); dividing by the busiest count keeps a vertex under several contacts that
// push one way from moving by their sum (it moves by at most their mean). A position stays within max_move of
// where the passes started it (SelfCollision::position_passes' bound); held vertices never move.
layout(local_size_x = 256) in;
#include "self_response_layout.glsl"

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= rp.n || im[i] == 0.0) return;
  vec3 sum = vec3(0.0);
  bool any = false;
  for (uint k = vstart[i]; k < vstart[i + 1u]; ++k) {
    const uint e = vlist[k];
    const vec4 d = delta[e];
    if (d.w == 0.0) continue;
    const uint s = e / 4u;
    SelfContactOut c;
    contact_of(s, c);
    uint busiest = 1u;
    for (uint j = 0u; j < 4u; ++j)
      if (delta[4u * s + j].w != 0.0) busiest = max(busiest, vcount[c.v[j]]);
    sum += d.xyz / float(busiest);
    any = true;
  }
  if (!any) return;
  if (push.target == 0u) {
    vec3 p = x[i].xyz + sum;
    const vec3 moved = p - x0[i].xyz;
    const float moved2 = dot(moved, moved);
    if (moved2 > rp.max_move * rp.max_move) p = x0[i].xyz + (rp.max_move / sqrt(moved2)) * moved;
    x[i].xyz = p;
  } else {
    v[i].xyz += sum;
  }
}
