// Renders the default scene headless (lavapipe here) and checks the picture itself.
#include <doctest/doctest.h>

#include <algorithm>

#include "engine/scripted_session.h"
#include "engine/offscreen_target.h"
#include "engine/renderer.h"
#include "engine/vulkan_context.h"
#include "tests/skip.h"
#include "vulkan_probe.h"

namespace weft {
namespace {

constexpr uint32_t kW = 320, kH = 180;

struct Rgb {
  int r, g, b;
};
Rgb pixel(const std::vector<uint8_t>& px, int x, int y) {
  const size_t i = (size_t(y) * kW + x) * 4;
  return {px[i], px[i + 1], px[i + 2]};
}
// The strain view paints an unstretched cloth green; nothing else in the scene is green.
bool is_cloth_green(Rgb c) { return c.g > c.r + 40 && c.g > c.b + 40; }

struct Silhouette {
  int count = 0, min_y = kH, max_y = -1, min_x = kW, max_x = -1;
};
Silhouette cloth_silhouette(const std::vector<uint8_t>& px) {
  Silhouette s;
  for (int y = 0; y < int(kH); ++y)
    for (int x = 0; x < int(kW); ++x)
      if (is_cloth_green(pixel(px, x, y))) {
        ++s.count;
        s.min_y = std::min(s.min_y, y), s.max_y = std::max(s.max_y, y);
        s.min_x = std::min(s.min_x, x), s.max_x = std::max(s.max_x, x);
      }
  return s;
}

glm::vec2 to_pixel(const RenderView& view, glm::vec3 p) { return glm::vec2(project_to_pixel(view, p, {float(kW), float(kH)})); }

}  // namespace

TEST_CASE("default scene renders the cloth where it projects and background elsewhere") {
  WEFT_SKIP_IF(!test::vulkan_available(), "no usable Vulkan device");
  ScriptedSession demo;
  ClothSnapshot snap = demo.snapshot();
  VulkanContext ctx(test::validated_options());
  ctx.create_device();
  REQUIRE(ctx.validation_enabled());
  Renderer renderer(ctx, OffscreenTarget::kFormat, demo.runtime().mesh(), demo.scene().props);
  OffscreenTarget target(ctx, {kW, kH});
  const RenderView view = demo.scene().camera.view(float(kW) / kH);
  RenderSettings strain;
  strain.strain_view = true;
  const std::vector<uint8_t> px = target.render(renderer, snap, view, strain);

  // Every sampled cloth vertex, nudged 2.5 px towards the cloth centre, lands on a cloth-coloured pixel.
  const glm::vec2 centre = to_pixel(view, glm::vec3(0.f, 0.76f, 0.f));
  int checked = 0, hits = 0;
  glm::vec2 lo(1e9f), hi(-1e9f);
  for (size_t i = 0; i < snap.position.size(); ++i) {
    const glm::vec2 c = to_pixel(view, snap.position[i]);
    lo = glm::min(lo, c), hi = glm::max(hi, c);
    if (i % 3 != 0) continue;
    const glm::vec2 inward = c + 2.5f * glm::normalize(centre - c + glm::vec2(1e-3f));
    hits += is_cloth_green(pixel(px, int(inward.x), int(inward.y)));
    ++checked;
  }
  CHECK(checked > 100);
  CHECK(hits == checked);

  // No cloth colour outside the cloth's projected bounding box; sky colour in the top row.
  const Silhouette s = cloth_silhouette(px);
  CHECK(s.count > int(kW * kH / 20));
  CHECK(s.min_x >= int(lo.x) - 1);
  CHECK(s.max_x <= int(hi.x) + 1);
  CHECK(s.min_y >= int(lo.y) - 1);
  CHECK(s.max_y <= int(hi.y) + 1);
  const Rgb sky = pixel(px, kW / 2, 0);
  CHECK(sky.b > sky.r);               // the clear colour is bluish grey
  CHECK(std::abs(sky.r - 219) <= 3);  // 0.70 linear -> 219 in sRGB

  // The fabric look: the centre pixel is red or beige (not green) without the heat map.
  const std::vector<uint8_t> fabric = target.render(renderer, snap, view, RenderSettings{});
  const Rgb f = pixel(fabric, int(centre.x), int(centre.y));
  CHECK(f.r > f.g);
  CHECK(f.r > f.b);
  CHECK(ctx.validation_errors() == 0);
}

TEST_CASE("lifting two corners raises the cloth's silhouette") {
  WEFT_SKIP_IF(!test::vulkan_available(), "no usable Vulkan device");
  ScriptedSession demo;
  VulkanContext ctx(test::validated_options());
  ctx.create_device();
  Renderer renderer(ctx, OffscreenTarget::kFormat, demo.runtime().mesh(), demo.scene().props);
  OffscreenTarget target(ctx, {kW, kH});
  const RenderView view = demo.scene().camera.view(float(kW) / kH);
  RenderSettings strain;
  strain.strain_view = true;
  ClothSnapshot snap = demo.snapshot();
  const Silhouette rest = cloth_silhouette(target.render(renderer, snap, view, strain));

  demo.advance_to(TwoHandScript::kLiftEnd);  // both near corners held and lifted ~0.55 m
  snap = demo.snapshot();
  REQUIRE(!demo.held(Hand::Left).empty());
  REQUIRE(!demo.held(Hand::Right).empty());
  const std::vector<uint8_t> lifted_px = target.render(renderer, snap, view, strain);
  const Silhouette lifted = cloth_silhouette(lifted_px);

  // The lifted corners are drawn where there was only background, well above the old top edge.
  const glm::vec2 hand = to_pixel(view, demo.hand_position(Hand::Left));
  CHECK(lifted.min_y < rest.min_y - 15);
  CHECK(int(hand.y) < rest.min_y);
  // Between the hands, just below their line, the cloth hangs like a curtain.
  const glm::vec2 mid = 0.5f * (hand + to_pixel(view, demo.hand_position(Hand::Right)));
  bool cloth_below_hands = false;
  for (int dy = 2; dy < 30 && !cloth_below_hands; ++dy)
    cloth_below_hands = is_cloth_green(pixel(lifted_px, int(mid.x), int(mid.y) + dy));
  CHECK(cloth_below_hands);
  CHECK(!is_cloth_green(pixel(lifted_px, int(mid.x), int(mid.y) - 12)));  // and sky above them
  // Grasped vertices carry the left hand's bit.
  CHECK(snap.grasped[demo.held(Hand::Left)[0]] == 1);
  CHECK(ctx.validation_errors() == 0);
}

}  // namespace weft

namespace weft {
namespace {
// Colliders are slate blue (renderer.cpp): blue well over red and green, unlike the grey floor, the sky,
// the cyan hand and the cloth.
bool is_collider_blue(Rgb c) { return c.b > c.r + 40 && c.b > c.g + 20; }
}  // namespace

TEST_CASE("the scene's sphere, capsule, turned box and rigid box are drawn where they are") {
  WEFT_SKIP_IF(!test::vulkan_available(), "no usable Vulkan device");
  // The built-in table scene with solids placed in front of the table, on the camera's side (+z).
  Scene scene = builtin_table_scene();
  Collider sphere, capsule, box;
  sphere.shape = ColliderShape::Sphere;
  sphere.pose.position = {-0.45f, 0.25f, 0.75f};
  sphere.radius = 0.15f;
  capsule.shape = ColliderShape::Capsule;
  capsule.pose.position = {0.45f, 0.25f, 0.75f};
  capsule.pose.orientation = glm::angleAxis(glm::radians(90.f), glm::vec3(0, 0, 1));  // lying along x
  capsule.radius = 0.08f;
  capsule.half_length = 0.15f;
  box.shape = ColliderShape::Box;
  box.pose.position = {0.f, 0.15f, 0.9f};
  box.pose.orientation = glm::angleAxis(glm::radians(30.f), glm::vec3(0, 1, 0));
  box.half_extents = {0.1f, 0.15f, 0.1f};
  scene.colliders.insert(scene.colliders.end(), {sphere, capsule, box});
  RigidBox crate;  // resting on the floor beside the table
  crate.half_extents = glm::vec3(0.08f);
  crate.pose.position = {0.8f, 0.08f, 0.2f};
  scene.rigid_boxes.push_back(crate);
  RuntimeOptions options;
  options.lockstep = true;
  ScriptedSession demo(std::make_unique<Runtime>(options, scene, "solids"), false);
  const ClothSnapshot& snap = demo.snapshot();
  // The table (the first box, not turned) is a prop, not a solid; the floor is neither.
  REQUIRE(snap.solid_count == 4);
  CHECK(snap.solids_left_out == 0);
  CHECK(snap.solids[0].shape == SolidShape::Sphere);
  CHECK(snap.solids[1].shape == SolidShape::Capsule);
  CHECK(snap.solids[1].size == glm::vec3(0.08f, 0.15f, 0.f));
  CHECK(snap.solids[2].shape == SolidShape::Box);
  CHECK(snap.solids[2].orientation == box.pose.orientation);
  CHECK(!snap.solids[2].rigid);
  CHECK(snap.solids[3].rigid);
  CHECK(snap.solids[3].size == crate.half_extents);

  VulkanContext ctx(test::validated_options());
  ctx.create_device();
  Renderer renderer(ctx, OffscreenTarget::kFormat, demo.runtime().mesh(), demo.scene().props);
  OffscreenTarget target(ctx, {kW, kH});
  const RenderView view = demo.scene().camera.view(float(kW) / kH);
  const std::vector<uint8_t> px = target.render(renderer, snap, view, RenderSettings{});
  auto blue_at = [&](glm::vec3 p) {
    const glm::vec2 c = to_pixel(view, p);
    return is_collider_blue(pixel(px, int(c.x), int(c.y)));
  };
  CHECK(blue_at(sphere.pose.position));
  CHECK(blue_at(sphere.pose.position + glm::vec3(0.f, 0.1f, 0.f)));
  CHECK(blue_at(capsule.pose.position + glm::vec3(0.17f, 0.f, 0.f)));   // a cap, beyond the cylinder
  CHECK(blue_at(capsule.pose.position - glm::vec3(0.17f, 0.f, 0.f)));
  CHECK(!blue_at(capsule.pose.position + glm::vec3(0.f, 0.14f, 0.f)));  // above it: the floor behind
  CHECK(blue_at(box.pose.position + glm::vec3(0.f, 0.1f, 0.f)));
  const glm::vec2 crate_px = to_pixel(view, crate.pose.position + glm::vec3(0.f, 0.07f, 0.f));  // its top, ochre
  const Rgb ochre = pixel(px, int(crate_px.x), int(crate_px.y));
  CHECK(ochre.r > ochre.b + 60);
  CHECK(ochre.g > ochre.b + 20);

  // Without them, the same pixels show the floor.
  ClothSnapshot bare = snap;
  bare.solid_count = 0;
  const std::vector<uint8_t> floor_px = target.render(renderer, bare, view, RenderSettings{});
  const glm::vec2 c = to_pixel(view, sphere.pose.position);
  CHECK(!is_collider_blue(pixel(floor_px, int(c.x), int(c.y))));
  CHECK(ctx.validation_errors() == 0);
}

}  // namespace weft
