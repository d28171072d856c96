#version 450
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_material;
layout(location = 3) in float in_strain;
layout(location = 4) in vec3 in_grasp;

layout(location = 0) out vec4 out_color;

// Stretch heat map in the spirit of Volino 2005 Fig. 2: blue when compressed, green at rest,
// yellow then red as the fabric stretches (red at 10 % strain).
vec3 strain_color(float s) {
  float t = clamp(s / 0.10, -1.0, 1.0);
  if (t < 0.0) return mix(vec3(0.15, 0.65, 0.25), vec3(0.10, 0.25, 0.90), -t);
  if (t < 0.5) return mix(vec3(0.15, 0.65, 0.25), vec3(0.95, 0.85, 0.10), t * 2.0);
  return mix(vec3(0.95, 0.85, 0.10), vec3(0.90, 0.10, 0.08), t * 2.0 - 1.0);
}

// Plain weave: threads along weft (u) and warp (v) 4 mm apart, over-under alternating, on top of a
// 5 cm two-tone check so the fabric's deformation reads at any distance.
vec3 fabric(vec2 uv, bool front) {
  vec2 cell = floor(uv / 0.05);
  bool check = mod(cell.x + cell.y, 2.0) < 1.0;
  vec3 base = front ? (check ? vec3(0.62, 0.10, 0.12) : vec3(0.80, 0.70, 0.58))
                    : (check ? vec3(0.45, 0.12, 0.14) : vec3(0.62, 0.56, 0.48));
  vec2 thread = uv / 0.004;
  vec2 f = abs(fract(thread) - 0.5) * 2.0;              // 0 at a thread centre, 1 between threads
  vec2 w = fwidth(thread);
  float fade = clamp(1.0 - max(w.x, w.y), 0.0, 1.0);    // threads blur away when smaller than a pixel
  bool over = mod(floor(thread.x) + floor(thread.y), 2.0) < 1.0;
  float ridge = over ? 1.0 - f.y : 1.0 - f.x;
  return base * (1.0 - 0.18 * fade * (1.0 - ridge));
}

void main() {
  vec3 n = normalize(in_normal);
  if (!gl_FrontFacing) n = -n;  // two-sided
  vec3 albedo = frame.options.x > 0.5 ? strain_color(in_strain) : fabric(in_material, gl_FrontFacing);
  vec3 highlight = in_grasp.x * vec3(0.1, 0.8, 1.0) + in_grasp.y * vec3(1.0, 0.55, 0.05) +
                   in_grasp.z * vec3(0.85, 0.2, 0.9);
  float h = clamp(in_grasp.x + in_grasp.y + in_grasp.z, 0.0, 1.0);
  albedo = mix(albedo, highlight, 0.85 * h);
  vec3 c = shade(albedo, n, in_world, 24.0, 0.06);
  out_color = vec4(c + highlight * 0.35 * h, 1.0);
}
