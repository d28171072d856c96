#include <doctest/doctest.h>

#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "xr/eye_view.h"

using namespace weft;
using namespace weft::xr;

namespace {
XrView make_view(glm::vec3 position, glm::quat orientation, float half_angle) {
  XrView v{};
  v.type = XR_TYPE_VIEW;
  v.pose.position = {position.x, position.y, position.z};
  v.pose.orientation = {orientation.x, orientation.y, orientation.z, orientation.w};
  v.fov = {-half_angle, half_angle, half_angle, -half_angle};
  return v;
}
glm::vec3 ndc(const RenderView& rv, glm::vec3 world) {
  const glm::vec4 c = rv.projection * rv.view * glm::vec4(world, 1.f);
  return glm::vec3(c) / c.w;
}
}  // namespace

TEST_CASE("an eye looking down -z sees a point straight ahead at the image centre, depth by distance") {
  const XrView v = make_view({0.03f, 1.6f, 0.f}, glm::quat(1, 0, 0, 0), 0.7f);
  const RenderView rv = eye_render_view(v, 0.05f, 100.f);
  CHECK(rv.eye == glm::vec3(0.03f, 1.6f, 0.f));
  const glm::vec3 ahead = ndc(rv, {0.03f, 1.6f, -2.f});
  CHECK(ahead.x == doctest::Approx(0.f).epsilon(1e-6));
  CHECK(ahead.y == doctest::Approx(0.f).epsilon(1e-6));
  CHECK(ndc(rv, {0.03f, 1.6f, -0.05f}).z == doctest::Approx(0.f).epsilon(1e-5));  // near plane
  CHECK(ndc(rv, {0.03f, 1.6f, -100.f}).z == doctest::Approx(1.f).epsilon(1e-5)); // far plane
  // Vulkan clip: up in the world is up in the image, i.e. negative y.
  CHECK(ndc(rv, {0.03f, 1.9f, -2.f}).y < 0.f);
  CHECK(ndc(rv, {0.5f, 1.6f, -2.f}).x > 0.f);
  // The fov's edge: tan(0.7) to the right at 1 m lands on x = 1.
  CHECK(ndc(rv, {0.03f + std::tan(0.7f), 1.6f, -1.f}).x == doctest::Approx(1.f).epsilon(1e-5));
}

TEST_CASE("an eye turned 90 degrees left (about +y) sees -x ahead") {
  const glm::quat left = glm::angleAxis(glm::radians(90.f), glm::vec3(0, 1, 0));
  const RenderView rv = eye_render_view(make_view({0, 1.5f, 0}, left, 0.6f), 0.1f, 50.f);
  const glm::vec3 p = ndc(rv, {-3.f, 1.5f, 0.f});
  CHECK(p.x == doctest::Approx(0.f).epsilon(1e-5));
  CHECK(p.y == doctest::Approx(0.f).epsilon(1e-5));
  CHECK(p.z > 0.f);
  CHECK(p.z < 1.f);
  // What was ahead (-z) is now to the eye's right.
  CHECK(ndc(rv, {-3.f, 1.5f, -1.f}).x > 0.f);
}

TEST_CASE("an asymmetric field of view shifts the image centre") {
  XrView v = make_view({0, 0, 0}, glm::quat(1, 0, 0, 0), 0.7f);
  v.fov.angleLeft = -0.9f;  // wider on the left (a left eye's nasal/temporal split)
  v.fov.angleRight = 0.5f;
  const RenderView rv = eye_render_view(v, 0.05f, 10.f);
  // Straight ahead is right of the image centre: more of the field lies to its left.
  CHECK(ndc(rv, {0, 0, -1}).x > 0.1f);
  CHECK(ndc(rv, {std::tan(-0.9f), 0, -1}).x == doctest::Approx(-1.f).epsilon(1e-5));
  CHECK(ndc(rv, {std::tan(0.5f), 0, -1}).x == doctest::Approx(1.f).epsilon(1e-5));
}
