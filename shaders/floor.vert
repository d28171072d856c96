#version 450
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"

layout(location = 0) out vec3 out_world;

// A 40 m square at the floor height, two triangles generated from the vertex index (no buffer).
void main() {
  const vec2 corners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
  vec2 c = corners[gl_VertexIndex] * 20.0;
  out_world = vec3(c.x, frame.options.y, c.y);
  gl_Position = frame.view_proj * vec4(out_world, 1.0);
}
