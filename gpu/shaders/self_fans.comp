#version 450
// Per vertex: the normal cone of its fan (sim/bvh.h's TriangleBvh::fan_cone): the axis along the sum of the
// fan's unit triangle normals, the half-angle to the farthest of them (acos_upper: never narrower than the
// exact cone); pi where a triangle is degenerate or the fan is not one edge-connected patch (empty in fan[]).
layout(local_size_x = 256) in;
#include "self_layout.glsl"
#include "self_geometry.glsl"

vec3 unit_normal(uint t) {
  const uvec3 c = tri[t].xyz;
  const vec3 n = cross(x[c.y].xyz - x[c.x].xyz, x[c.z].xyz - x[c.x].xyz);
  const float l = length(n);
  return l > 0.0 ? n / l : vec3(0.0);
}

void main() {
  const uint v = gl_GlobalInvocationID.x;
  if (v >= sp.n) return;
  cone[v] = vec4(0.0, 0.0, 0.0, 3.14159265);
  const uint lo = fan_off[v], hi = fan_off[v + 1u];
  if (lo == hi) return;
  vec3 sum = vec3(0.0);
  for (uint k = lo; k < hi; ++k) {
    const vec3 n = unit_normal(fan[k]);
    if (n == vec3(0.0)) return;
    sum += n;
  }
  const float len = length(sum);
  if (!(len > 0.0)) return;
  const vec3 axis = sum / len;
  float least = 1.0;
  for (uint k = lo; k < hi; ++k) least = min(least, dot(axis, unit_normal(fan[k])));
  cone[v] = vec4(axis, acos_upper(least));
}
