// Per-draw constants shared by every Weft shader (112 bytes; 128 is the guaranteed push-constant size).
layout(push_constant) uniform Frame {
  mat4 view_proj;   // world -> clip (Vulkan clip space, y down)
  vec4 eye;         // xyz: camera position (m); w: time (s)
  vec4 options;     // x: strain view (0/1); y: floor height (m); z: table top height (m); w: unused
  vec4 table_rect;  // table top extent: min x, min z, max x, max z (m)
} frame;

const vec3 kLightDir = normalize(vec3(0.35, 1.0, 0.45));  // towards the key light

// Hemisphere ambient plus a wrapped key light: soft enough for fabric, no shadow maps needed.
vec3 shade(vec3 albedo, vec3 n, vec3 world_pos, float shininess, float spec_strength) {
  vec3 v = normalize(frame.eye.xyz - world_pos);
  float ndl = dot(n, kLightDir);
  float diffuse = clamp((ndl + 0.3) / 1.3, 0.0, 1.0);
  vec3 ambient = mix(vec3(0.20, 0.19, 0.18), vec3(0.33, 0.36, 0.42), n.y * 0.5 + 0.5);
  vec3 h = normalize(kLightDir + v);
  float spec = ndl > 0.0 ? pow(max(dot(n, h), 0.0), shininess) * spec_strength : 0.0;
  return albedo * (ambient + 0.85 * diffuse) + vec3(spec);
}
