#version 450
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"

// One unit cube ([-0.5, 0.5]^3) per instance, placed by a model matrix: table parts and gizmos.
layout(location = 0) in vec4 in_model0;
layout(location = 1) in vec4 in_model1;
layout(location = 2) in vec4 in_model2;
layout(location = 3) in vec4 in_model3;
layout(location = 4) in vec4 in_color;

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec4 out_color;

void main() {
  const int faces[36] = int[](0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                              2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5);
  int c = faces[gl_VertexIndex];
  vec3 local = vec3(c & 1, (c >> 1) & 1, (c >> 2) & 1) - 0.5;
  mat4 model = mat4(in_model0, in_model1, in_model2, in_model3);
  out_world = (model * vec4(local, 1.0)).xyz;
  out_color = in_color;
  gl_Position = frame.view_proj * vec4(out_world, 1.0);
}
