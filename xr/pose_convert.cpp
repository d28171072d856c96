#include "xr/pose_convert.h"

#include <cmath>

namespace weft::xr {

Pose to_pose(const XrPosef& p) {
  Pose out;
  out.position = glm::vec3(p.position.x, p.position.y, p.position.z);
  out.orientation = glm::quat(p.orientation.w, p.orientation.x, p.orientation.y, p.orientation.z);
  return out;
}

XrPosef to_xr(const Pose& p) {
  XrPosef out;
  out.position = {p.position.x, p.position.y, p.position.z};
  out.orientation = {p.orientation.x, p.orientation.y, p.orientation.z, p.orientation.w};
  return out;
}

Pose compose(const Pose& a, const Pose& b) {
  Pose out;
  out.position = a.transform_point(b.position);
  out.orientation = a.orientation * b.orientation;
  return out;
}

Pose inverse_pose(const Pose& p) {
  Pose out;
  out.orientation = glm::conjugate(p.orientation);
  out.position = -(out.orientation * p.position);
  return out;
}

glm::mat4 to_matrix(const Pose& pose) {
  glm::mat4 m = glm::mat4_cast(pose.orientation);
  m[3] = glm::vec4(pose.position, 1.f);
  return m;
}

glm::mat4 view_matrix(const Pose& eye) {
  const glm::quat inv = glm::conjugate(eye.orientation);
  glm::mat4 m = glm::mat4_cast(inv);
  m[3] = glm::vec4(-(inv * eye.position), 1.f);
  return m;
}

glm::mat4 vulkan_projection(const XrFovf& fov, float near_m, float far_m) {
  const float l = std::tan(fov.angleLeft), r = std::tan(fov.angleRight);
  const float u = std::tan(fov.angleUp), d = std::tan(fov.angleDown);
  const float w = r - l;
  const float h = d - u;  // negative: Vulkan's y points down
  glm::mat4 m(0.f);
  m[0][0] = 2.f / w;
  m[2][0] = (r + l) / w;
  m[1][1] = 2.f / h;
  m[2][1] = (u + d) / h;
  m[2][2] = -far_m / (far_m - near_m);
  m[3][2] = -(far_m * near_m) / (far_m - near_m);
  m[2][3] = -1.f;
  return m;
}

}  // namespace weft::xr
