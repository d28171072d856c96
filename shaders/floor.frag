#version 450
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"

layout(location = 0) in vec3 in_world;
layout(location = 0) out vec4 out_color;

// Anti-aliased grid line coverage for lines every `spacing` metres.
float grid(vec2 p, float spacing, float width_px) {
  vec2 g = p / spacing;
  vec2 d = abs(fract(g - 0.5) - 0.5) / fwidth(g);
  return 1.0 - clamp(min(d.x, d.y) - width_px * 0.5 + 0.5, 0.0, 1.0);
}

void main() {
  vec2 p = in_world.xz;
  float fine = grid(p, 0.1, 1.0);
  float coarse = grid(p, 1.0, 2.0);
  vec3 albedo = vec3(0.55, 0.56, 0.58);
  albedo = mix(albedo, vec3(0.40, 0.41, 0.44), fine * 0.6);
  albedo = mix(albedo, vec3(0.25, 0.26, 0.30), coarse);
  vec3 c = shade(albedo, vec3(0, 1, 0), in_world, 8.0, 0.0);
  float dist = length(in_world - frame.eye.xyz);
  c = mix(c, vec3(0.70, 0.74, 0.80), clamp((dist - 6.0) / 14.0, 0.0, 1.0));  // fade into the sky colour
  out_color = vec4(c, 1.0);
}
