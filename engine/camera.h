#pragma once
// What one rendered view needs (view + projection, one per eye in XR) and the desktop orbit camera
// that produces it. Projections use Vulkan clip conventions: y down, depth in [0, 1].
#include <glm/glm.hpp>

namespace weft {

struct RenderView {
  glm::mat4 view{1.f};        // world -> eye
  glm::mat4 projection{1.f};  // eye -> clip (Vulkan)
  glm::vec3 eye{0.f};         // camera position, m, world
};

struct Ray {
  glm::vec3 origin{0.f};
  glm::vec3 direction{0.f, 0.f, -1.f};  // unit
};

// Right-handed perspective into Vulkan clip space (y flipped, z in [0, 1]).
glm::mat4 perspective_vulkan(float fov_y_radians, float aspect, float z_near, float z_far);

// Ray from the eye through a pixel (origin top-left, +y down) of a viewport of the given size.
Ray ray_through_pixel(const RenderView& view, glm::vec2 pixel, glm::vec2 viewport);
// Pixel (top-left origin) where a world point projects; z of the result is the clip depth in [0, 1].
glm::vec3 project_to_pixel(const RenderView& view, glm::vec3 world, glm::vec2 viewport);

// Orbits a target point: yaw about +y, pitch above the horizon, distance from the target.
struct OrbitCamera {
  glm::vec3 target{0.f, 0.75f, 0.f};
  float yaw = 0.f;         // rad; 0 looks along -z (camera on the +z side)
  float pitch = 0.55f;     // rad above the horizontal
  float distance = 2.0f;   // m
  float fov_y = 0.8f;      // rad
  float z_near = 0.02f, z_far = 60.f;

  glm::vec3 eye() const;
  RenderView view(float aspect) const;
  void orbit(float dyaw, float dpitch);          // rad; pitch is clamped short of the poles
  void pan(float right_m, float up_m);           // moves the target in the view plane
  void zoom(float steps);                         // > 0 moves closer, 10 % per step
};

}  // namespace weft
