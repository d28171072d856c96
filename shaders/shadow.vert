#version 450
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 0) out float out_darkness;

// Contact cue: each cloth vertex is dropped straight down onto the surface below it (table top or
// floor), darker the closer the cloth is to that surface.
void main() {
  vec4 r = frame.table_rect;
  bool over_table = in_position.x >= r.x && in_position.x <= r.z && in_position.z >= r.y && in_position.z <= r.w &&
                    in_position.y >= frame.options.z - 0.02;
  float surface = over_table ? frame.options.z : frame.options.y;
  float height = max(in_position.y - surface, 0.0);
  out_darkness = 0.55 * clamp(1.0 - height / 0.6, 0.0, 1.0);
  gl_Position = frame.view_proj * vec4(in_position.x, surface + 0.002, in_position.z, 1.0);
}
