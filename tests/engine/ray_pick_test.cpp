#include <doctest/doctest.h>

#include <cmath>

#include "engine/desktop_controller.h"
#include "engine/ray_pick.h"
#include "engine/runtime.h"

namespace weft {

TEST_CASE("ray pick returns the nearest triangle hit, from either side, and misses cleanly") {
  // Two unit triangles stacked at y = 0 and y = 1.
  const std::vector<glm::vec3> x = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}, {1, 1, 0}, {0, 1, 1}};
  const std::vector<std::array<uint32_t, 3>> tris = {{0, 1, 2}, {3, 4, 5}};
  const auto down = pick_triangle({{0.2f, 5.f, 0.2f}, {0, -1, 0}}, x, tris);
  REQUIRE(down);
  CHECK(down->triangle == 1);
  CHECK(down->distance == doctest::Approx(4.f));
  CHECK(down->point.y == doctest::Approx(1.f));
  CHECK(down->nearest_vertex == 3);
  const auto up = pick_triangle({{0.7f, -2.f, 0.2f}, {0, 1, 0}}, x, tris);  // back face
  REQUIRE(up);
  CHECK(up->triangle == 0);
  CHECK(up->nearest_vertex == 1);
  CHECK_FALSE(pick_triangle({{0.8f, 5.f, 0.8f}, {0, -1, 0}}, x, tris));  // outside (u + v > 1)
  CHECK_FALSE(pick_triangle({{0.2f, 5.f, 0.2f}, {0, 1, 0}}, x, tris));   // pointing away
}

TEST_CASE("rays enter spheres, capsules and turned boxes where their surfaces are, and miss beside them") {
  SolidGizmo ball{.shape = SolidShape::Sphere, .position = {0, 1, 0}, .size = {0.5f, 0, 0}};
  CHECK(*ray_solid_distance({{0, 1, 5}, {0, 0, -1}}, ball) == doctest::Approx(4.5f));
  CHECK(*ray_solid_distance({{0, 1.2f, 0}, {1, 0, 0}}, ball) == 0.f);  // from inside
  CHECK_FALSE(ray_solid_distance({{0.6f, 1, 5}, {0, 0, -1}}, ball));
  CHECK_FALSE(ray_solid_distance({{0, 1, 5}, {0, 0, 1}}, ball));  // pointing away

  // A capsule lying along x (local y turned onto x): its side, its end cap, and past its end.
  SolidGizmo bolster{.shape = SolidShape::Capsule, .position = {0, 0, 0},
                     .orientation = glm::angleAxis(glm::radians(-90.f), glm::vec3(0, 0, 1)), .size = {0.1f, 0.5f, 0}};
  CHECK(*ray_solid_distance({{0.3f, 2, 0}, {0, -1, 0}}, bolster) == doctest::Approx(1.9f));
  CHECK(*ray_solid_distance({{2, 0, 0}, {-1, 0, 0}}, bolster) == doctest::Approx(1.4f));   // the cap's tip
  CHECK(*ray_solid_distance({{0.55f, 2, 0}, {0, -1, 0}}, bolster) == doctest::Approx(2.f - std::sqrt(0.0075f)).epsilon(1e-4));
  CHECK_FALSE(ray_solid_distance({{0.65f, 2, 0}, {0, -1, 0}}, bolster));
  CHECK_FALSE(ray_solid_distance({{0, 2, 0.15f}, {0, -1, 0}}, bolster));

  // A box turned 45 degrees about y: a ray down the diagonal meets its corner, nearer than its face.
  SolidGizmo crate{.shape = SolidShape::Box, .orientation = glm::angleAxis(glm::radians(45.f), glm::vec3(0, 1, 0)),
                   .size = {0.5f, 0.5f, 0.5f}};
  CHECK(*ray_solid_distance({{0, 0, 3}, {0, 0, -1}}, crate) == doctest::Approx(3.f - 0.5f * std::sqrt(2.f)));
  CHECK_FALSE(ray_solid_distance({{0.72f, 0, 3}, {0, 0, -1}}, crate));
  CHECK(*ray_solid_distance({{0.6f, 0, 3}, {0, 0, -1}}, crate) > 3.f - 0.5f * std::sqrt(2.f));

  // The nearest of a snapshot's solids, and only the first solid_count of them.
  ClothSnapshot snap;
  snap.solids[0] = crate, snap.solids[1] = ball;
  snap.solid_count = 1;
  CHECK_FALSE(nearest_solid_hit({{0, 1.2f, 5}, {0, 0, -1}}, snap));  // the crate's top is at 0.5
  snap.solid_count = 2;
  CHECK(*nearest_solid_hit({{0, 1.2f, 5}, {0, 0, -1}}, snap) == doctest::Approx(5.f - std::sqrt(0.21f)));
}

TEST_CASE("the mouse grabs the cloth it sees, not the cloth behind a ball drawn in front of it") {
  // A 1 m square of cloth standing at z = 0 and a ball in front of its left half; the camera looks from +z.
  SnapshotMesh mesh;
  mesh.triangles = {{0, 1, 2}, {1, 3, 2}};
  mesh.material.assign(4, glm::vec2(0.f));
  ClothSnapshot snap;
  snap.resize(4);
  snap.position = {{-0.5f, 0.5f, 0.f}, {0.5f, 0.5f, 0.f}, {-0.5f, 1.5f, 0.f}, {0.5f, 1.5f, 0.f}};
  snap.solids[0] = {.shape = SolidShape::Sphere, .position = {-0.25f, 1.f, 0.5f}, .size = {0.2f, 0.f, 0.f}};
  snap.solid_count = 1;
  RuntimeOptions options;
  options.lockstep = true;
  Runtime runtime(options, builtin_table_scene(), "test:mouse");  // the real sink: grabs queue to its sim
  DesktopController mouse(runtime.input(), mesh, snap, [] { return 0.0; });
  mouse.set_viewport({640.f, 360.f});
  mouse.camera().target = {0.f, 1.f, 0.f};
  mouse.camera().pitch = 0.f;
  mouse.camera().distance = 3.f;
  auto cursor_on = [&](glm::vec3 p) { return glm::vec2(project_to_pixel(mouse.view(), p, {640.f, 360.f})); };

  mouse.mouse_button(MouseButton::Left, true, cursor_on({-0.25f, 1.f, 0.f}));  // the cloth behind the ball
  CHECK_FALSE(mouse.holding(Hand::Left));
  mouse.mouse_button(MouseButton::Left, false, cursor_on({-0.25f, 1.f, 0.f}));
  mouse.mouse_button(MouseButton::Right, true, cursor_on({0.25f, 1.f, 0.f}));  // the cloth in plain view
  CHECK(mouse.holding(Hand::Right));
  snap.solid_count = 0;  // without the ball, its pixel is cloth again
  mouse.mouse_button(MouseButton::Left, true, cursor_on({-0.25f, 1.f, 0.f}));
  CHECK(mouse.holding(Hand::Left));
}

}  // namespace weft
