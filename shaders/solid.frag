#version 450
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec4 in_color;
layout(location = 0) out vec4 out_color;

void main() {
  vec3 n = normalize(cross(dFdx(in_world), dFdy(in_world)));  // flat faces
  if (dot(n, frame.eye.xyz - in_world) < 0.0) n = -n;
  vec3 c = shade(in_color.rgb, n, in_world, 32.0, 0.15);
  out_color = vec4(c + in_color.rgb * in_color.a, 1.0);  // alpha: emissive boost (held hands glow)
}
