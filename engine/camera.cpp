#include "engine/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace weft {

glm::mat4 perspective_vulkan(float fov_y_radians, float aspect, float z_near, float z_far) {
  glm::mat4 p = glm::perspectiveRH_ZO(fov_y_radians, aspect, z_near, z_far);
  p[1][1] *= -1.f;  // Vulkan's clip y points down
  return p;
}

Ray ray_through_pixel(const RenderView& view, glm::vec2 pixel, glm::vec2 viewport) {
  const glm::vec2 ndc = pixel / viewport * 2.f - 1.f;
  const glm::mat4 inv = glm::inverse(view.projection * view.view);
  glm::vec4 near_p = inv * glm::vec4(ndc, 0.f, 1.f);
  glm::vec4 far_p = inv * glm::vec4(ndc, 1.f, 1.f);
  near_p /= near_p.w;
  far_p /= far_p.w;
  return {glm::vec3(near_p), glm::normalize(glm::vec3(far_p - near_p))};
}

glm::vec3 project_to_pixel(const RenderView& view, glm::vec3 world, glm::vec2 viewport) {
  glm::vec4 clip = view.projection * view.view * glm::vec4(world, 1.f);
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  return {(ndc.x * 0.5f + 0.5f) * viewport.x, (ndc.y * 0.5f + 0.5f) * viewport.y, ndc.z};
}

glm::vec3 OrbitCamera::eye() const {
  const glm::vec3 back(std::sin(yaw) * std::cos(pitch), std::sin(pitch), std::cos(yaw) * std::cos(pitch));
  return target + distance * back;
}

RenderView OrbitCamera::view(float aspect) const {
  RenderView v;
  v.eye = eye();
  v.view = glm::lookAtRH(v.eye, target, glm::vec3(0.f, 1.f, 0.f));
  v.projection = perspective_vulkan(fov_y, aspect, z_near, z_far);
  return v;
}

void OrbitCamera::orbit(float dyaw, float dpitch) {
  yaw += dyaw;
  pitch = std::clamp(pitch + dpitch, -1.45f, 1.45f);
}

void OrbitCamera::pan(float right_m, float up_m) {
  const glm::vec3 forward = glm::normalize(target - eye());
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0.f, 1.f, 0.f)));
  const glm::vec3 up = glm::cross(right, forward);
  target += right * right_m + up * up_m;
}

void OrbitCamera::zoom(float steps) { distance = std::clamp(distance * std::pow(0.9f, steps), 0.1f, 30.f); }

}  // namespace weft
