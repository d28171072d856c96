#version 450
// Per link: the weft/warp triangles' and hinges' blocks on this link's vertex pair added to its block, in
// element order (the triangles', then the hinges'), as add_link_block does on the CPU.
#include "step_layout.glsl"
#include "force_layout.glsl"
void main() {
  uint l = gl_GlobalInvocationID.x;
  if (l >= pc.nlink) return;
  vec4 j0 = link_j[2 * l], j1 = link_j[2 * l + 1];
  for (uint k = lg_off[l]; k < lg_off[l + 1]; ++k) {
    j0 += elem_block[2 * lg[k]];
    j1 += elem_block[2 * lg[k] + 1];
  }
  link_j[2 * l] = j0;
  link_j[2 * l + 1] = j1;
}
