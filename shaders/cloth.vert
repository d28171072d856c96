#version 450
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"

layout(location = 0) in vec3 in_position;  // m, world
layout(location = 1) in vec3 in_normal;    // unit normal
layout(location = 2) in float in_strain;   // max edge strain l / l0 - 1 around the vertex
layout(location = 3) in uint in_grasped;   // bit 0 left hand, bit 1 right hand, bit 2 tracker or pin
layout(location = 4) in vec2 in_material;  // material (weft, warp) coordinates, m

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec2 out_material;
layout(location = 3) out float out_strain;
layout(location = 4) out vec3 out_grasp;  // highlight colour weights: left, right, pin

void main() {
  out_world = in_position;
  out_normal = in_normal;
  out_material = in_material;
  out_strain = in_strain;
  out_grasp = vec3(in_grasped & 1u, (in_grasped >> 1) & 1u, (in_grasped >> 2) & 1u);
  gl_Position = frame.view_proj * vec4(in_position, 1.0);
}
