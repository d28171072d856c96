#version 450
// Per vertex: air drag and lift (Kang & Cho Eq. 31-34, sim/force_kernels.cpp's air_force) on the
// area-weighted unit normal, gathered over the vertex's triangles in triangle order (compute_vertex_normals).
// w: the linear drag coefficient c (f_drag = -c v_rel), which assemble.comp adds to W_ii as h c I.
#include "step_layout.glsl"
#include "force_layout.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  vec3 nsum = vec3(0.0);
  for (uint k = vg_off[i]; k < vg_off[i + 1]; ++k) {
    uint s = vg[k];
    if (s >= 3 * fp.ntri) break;  // the hinges' entries follow the triangles'
    uvec3 c = tri[s / 3].xyz;
    nsum += cross(x[c.y].xyz - x[c.x].xyz, x[c.z].xyz - x[c.x].xyz);
  }
  float nl = length(nsum);
  vec3 n = nl > 0.0 ? nsum / nl : vec3(0.0, 0.0, 1.0);
  vec3 vrel = v[i].xyz - fp.wind.xyz;
  float speed = length(vrel);
  vec4 out_air = vec4(0.0);
  if (speed > 1e-6) {
    vec3 vh = vrel / speed;
    float ndv = dot(n, vh), sin_t = abs(ndv);
    float area = varea[i];
    float c = fp.drag * area * sin_t * speed;
    vec3 f = -c * vrel;
    if (fp.lift > 0.0) {
      vec3 nn = ndv > 0.0 ? n : -n;
      f += fp.lift * area * (1.0 - sin_t) * speed * speed * cross(cross(nn, vh), vh);
    }
    out_air = vec4(f, c);
  }
  air[i] = out_air;
}
