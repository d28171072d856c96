#version 450
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"

// One unit cube ([-0.5, 0.5]^3) per instance, placed by a model matrix: table parts, gizmos, box
// colliders and rigid boxes. With in_shape.x = 1, a unit sphere instead (a capsule when in_shape.y, its
// half length in radii, is not 0: the hemispheres moved apart along y), drawn as bands of quads.
layout(location = 0) in vec4 in_model0;
layout(location = 1) in vec4 in_model1;
layout(location = 2) in vec4 in_model2;
layout(location = 3) in vec4 in_model3;
layout(location = 4) in vec4 in_color;
layout(location = 5) in vec4 in_shape;

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec4 out_color;

// Renderer::kRoundSegments and kRoundRings: the vertex count of a round draw follows from them.
const int kSegments = 24;  // around the axis
const int kRings = 8;      // bands per hemisphere; one more band joins the two (a capsule's cylinder)

vec3 cube_corner(int vertex) {
  const int faces[36] = int[](0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                              2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5);
  int c = faces[vertex];
  return vec3(c & 1, (c >> 1) & 1, (c >> 2) & 1) - 0.5;
}

// Ring k of 2 kRings + 2 from the top pole: the upper hemisphere's rings, then the lower one's, the
// equator twice (at +half_length and at -half_length).
vec3 round_corner(int vertex, float half_length) {
  const int dr[6] = int[](0, 1, 0, 0, 1, 1);
  const int ds[6] = int[](0, 0, 1, 1, 0, 1);
  int quad = vertex / 6, corner = vertex % 6;
  int ring = quad / kSegments + dr[corner];
  float lon = float(quad % kSegments + ds[corner]) * (6.28318530718 / float(kSegments));
  bool upper = ring <= kRings;
  float lat = float(upper ? ring : ring - 1) * (1.57079632679 / float(kRings));
  return vec3(sin(lat) * cos(lon), cos(lat) + (upper ? half_length : -half_length), sin(lat) * sin(lon));
}

void main() {
  vec3 local = in_shape.x > 0.5 ? round_corner(gl_VertexIndex, in_shape.y) : cube_corner(gl_VertexIndex);
  mat4 model = mat4(in_model0, in_model1, in_model2, in_model3);
  out_world = (model * vec4(local, 1.0)).xyz;
  out_color = in_color;
  gl_Position = frame.view_proj * vec4(out_world, 1.0);
}
