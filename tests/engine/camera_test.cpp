#include <doctest/doctest.h>

#include "engine/camera.h"

namespace weft {

TEST_CASE("orbit camera: target projects to the viewport centre, pixel rays round-trip") {
  OrbitCamera cam;
  cam.target = {0.1f, 0.8f, -0.2f};
  cam.yaw = 0.4f;
  const RenderView v = cam.view(16.f / 9.f);
  const glm::vec2 vp(1280.f, 720.f);
  const glm::vec3 c = project_to_pixel(v, cam.target, vp);
  CHECK(c.x == doctest::Approx(640.f).epsilon(1e-3));
  CHECK(c.y == doctest::Approx(360.f).epsilon(1e-3));
  CHECK(c.z > 0.f);
  CHECK(c.z < 1.f);
  // Up in the world is up on screen (Vulkan's y-down clip handled).
  CHECK(project_to_pixel(v, cam.target + glm::vec3(0, 0.1f, 0), vp).y < c.y);
  // A ray through a pixel passes through the point that projects there.
  const glm::vec3 p(0.3f, 0.9f, 0.1f);
  const glm::vec3 pp = project_to_pixel(v, p, vp);
  const Ray r = ray_through_pixel(v, glm::vec2(pp), vp);
  const glm::vec3 to_p = p - r.origin;
  CHECK(glm::length(to_p - glm::dot(to_p, r.direction) * r.direction) < 1e-4f);
  // Zoom and pitch clamp.
  const float d = cam.distance;
  cam.zoom(1.f);
  CHECK(cam.distance == doctest::Approx(0.9f * d));
  cam.orbit(0.f, 10.f);
  CHECK(cam.pitch < 1.5f);
}

}  // namespace weft
