#include <doctest/doctest.h>

#include <cmath>

#include "xr/pose_convert.h"

using namespace weft;
using namespace weft::xr;

TEST_CASE("OpenXR pose to sim pose keeps metres and reorders the quaternion") {
  XrPosef p;
  p.position = {0.25f, 1.5f, -0.75f};
  const float s = std::sqrt(0.5f);
  p.orientation = {0.f, s, 0.f, s};  // (x, y, z, w): 90 degrees about +y
  const Pose q = to_pose(p);
  CHECK(q.position == glm::vec3(0.25f, 1.5f, -0.75f));
  CHECK(q.orientation.w == doctest::Approx(s));
  CHECK(q.orientation.y == doctest::Approx(s));
  CHECK(q.orientation.x == 0.f);
  // Right-handed, y up: +90 degrees about y turns forward (-z) into -x.
  const glm::vec3 fwd = q.orientation * glm::vec3(0, 0, -1);
  CHECK(fwd.x == doctest::Approx(-1.f));
  CHECK(fwd.z == doctest::Approx(0.f).epsilon(1e-6));
  const XrPosef back = to_xr(q);
  CHECK(back.orientation.x == 0.f);
  CHECK(back.orientation.y == doctest::Approx(s));
  CHECK(back.orientation.w == doctest::Approx(s));
  CHECK(back.position.z == -0.75f);
}

TEST_CASE("view matrix inverts the eye pose and matches compose") {
  Pose eye;
  eye.position = {0.1f, 1.6f, 0.3f};
  eye.orientation = glm::angleAxis(0.4f, glm::normalize(glm::vec3(0.2f, 1.f, 0.1f)));
  const glm::mat4 v = view_matrix(eye);
  const glm::mat4 m = to_matrix(eye);
  const glm::mat4 id = v * m;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) CHECK(id[c][r] == doctest::Approx(c == r ? 1.f : 0.f).epsilon(1e-5));
  Pose local;
  local.position = {0.f, 0.f, -1.f};
  const Pose world = compose(eye, local);
  const glm::vec4 w = m * glm::vec4(local.position, 1.f);
  CHECK(world.position.x == doctest::Approx(w.x));
  CHECK(world.position.y == doctest::Approx(w.y));
  CHECK(world.position.z == doctest::Approx(w.z));
}

TEST_CASE("Vulkan projection maps the field-of-view edges to clip -1 / +1 - y down - depth 0..1") {
  XrFovf fov{-0.9f, 0.7f, 0.8f, -0.95f};  // left, right, up, down (radians)
  const float n = 0.05f, f = 50.f;
  const glm::mat4 P = vulkan_projection(fov, n, f);
  auto ndc = [&](glm::vec3 v) {
    const glm::vec4 c = P * glm::vec4(v, 1.f);
    return glm::vec3(c) / c.w;
  };
  const float z = -2.f;
  CHECK(ndc({std::tan(fov.angleRight) * 2.f, 0, z}).x == doctest::Approx(1.f));
  CHECK(ndc({std::tan(fov.angleLeft) * 2.f, 0, z}).x == doctest::Approx(-1.f));
  CHECK(ndc({0, std::tan(fov.angleUp) * 2.f, z}).y == doctest::Approx(-1.f));   // up is -1 in Vulkan
  CHECK(ndc({0, std::tan(fov.angleDown) * 2.f, z}).y == doctest::Approx(1.f));
  CHECK(ndc({0, 0, -n}).z == doctest::Approx(0.f).epsilon(1e-5));
  CHECK(ndc({0, 0, -f}).z == doctest::Approx(1.f).epsilon(1e-5));
}

TEST_CASE("inverse_pose undoes a pose: the stage offset maps scene points into the stage frame and back") {
  Pose stage;
  stage.position = {0.2f, 0.f, 0.95f};
  stage.orientation = glm::angleAxis(glm::radians(30.f), glm::vec3(0.f, 1.f, 0.f));
  const Pose id = compose(stage, inverse_pose(stage));
  CHECK(glm::length(id.position) < 1e-6f);
  CHECK(std::abs(std::abs(id.orientation.w) - 1.f) < 1e-6f);
  // The user (stage origin) stands at stage.position in the scene: the scene origin, seen from the
  // stage frame, is inverse_pose(stage).
  const glm::vec3 scene_point(0.f, 0.765f, 0.4f);
  const glm::vec3 in_stage = inverse_pose(stage).transform_point(scene_point);
  CHECK(glm::length(stage.transform_point(in_stage) - scene_point) < 1e-6f);
  CHECK(glm::length(in_stage - glm::conjugate(stage.orientation) * (scene_point - stage.position)) < 1e-6f);
}
