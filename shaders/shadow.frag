#version 450

layout(location = 0) in float in_darkness;
layout(location = 0) out vec4 out_color;

// Blended with VK_BLEND_OP_MIN, so overlapping shadow triangles never darken twice.
void main() { out_color = vec4(vec3(1.0 - in_darkness), 1.0); }
