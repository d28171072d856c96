// SceneEyeRenderer on a real Vulkan device (lavapipe here) with images standing in for an OpenXR
// runtime's swapchain images: the same attach / render / capture path the session drives.
#include <doctest/doctest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "../engine/vulkan_probe.h"
#include "engine/gpu_resources.h"
#include "engine/snapshot_builder.h"
#include "engine/vulkan_context.h"
#include "eye_pixels.h"
#include "sim/mesh_generators.h"
#include "tests/skip.h"
#include "xr/eye_view.h"
#include "xr/scene_eye_renderer.h"

using namespace weft;
using namespace weft::xr;

namespace {

constexpr VkExtent2D kEye{160, 120};

// A 0.6 m curtain 1 m in front of eyes at 1.5 m, pinned at its top corners.
struct CurtainSource final : XrSnapshotSource {
  World world;
  ClothSnapshot snap;
  std::vector<double> asked;
  CurtainSource() : world(make()) {}
  static World make() {
    GridSpec g;
    g.width = g.height = 0.6f;
    g.columns = g.rows = 6;
    Mesh mesh = make_grid(g);
    transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(-0.3f, 1.2f, -1.f)));
    return World(build_cloth_model(mesh, Material{}, {g.rows * (g.columns + 1), g.rows * (g.columns + 1) + g.columns}),
                 WorldConfig{});
  }
  const ClothSnapshot& snapshot_at(double t) override {
    asked.push_back(t);
    fill_snapshot(world, snap);
    return snap;
  }
};

XrView eye_view(int eye) {
  XrView v{};
  v.type = XR_TYPE_VIEW;
  v.pose.orientation.w = 1.f;
  v.pose.position = {eye == 0 ? -0.032f : 0.032f, 1.5f, 0.f};
  v.fov = {-0.7f, 0.7f, 0.55f, -0.55f};
  return v;
}

struct FakeSwapchains {
  VulkanContext& ctx;
  std::vector<GpuImage> images;
  XrEyeTargets targets;
  FakeSwapchains(VulkanContext& c, VkFormat color, VkFormat depth) : ctx(c) {
    targets.color_format = color;
    targets.depth_format = depth;
    for (XrEyeImages& e : targets.eyes) {
      e.extent = kEye;
      for (int i = 0; i < 2; ++i) {
        images.push_back(create_image(ctx, kEye, color,
                                      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                      VK_IMAGE_ASPECT_COLOR_BIT));
        e.color.push_back(images.back().image);
        if (depth == VK_FORMAT_UNDEFINED) continue;
        images.push_back(create_image(ctx, kEye, depth, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                      VK_IMAGE_ASPECT_DEPTH_BIT));
        e.depth.push_back(images.back().image);
      }
    }
  }
  ~FakeSwapchains() {
    vkDeviceWaitIdle(ctx.device());
    for (GpuImage& i : images) destroy(ctx, i);
  }
};

void run_frames(VkFormat color, VkFormat depth) {
  VulkanContext ctx(test::validated_options());
  ctx.create_device();
  REQUIRE(ctx.validation_enabled());
  CurtainSource source;
  RenderSettings strain;
  strain.strain_view = true;
  std::vector<EyeCapture> captures;
  std::vector<std::vector<uint8_t>> pixels;
  {
    FakeSwapchains swapchains(ctx, color, depth);
    SceneEyeRenderer eyes(make_snapshot_mesh(source.world.model()), SceneProps{}, source, strain);
    eyes.capture_left_eye(2, [&](const EyeCapture& c) {
      captures.push_back(c);
      pixels.push_back(*c.rgba);
    });
    eyes.attach(ctx, swapchains.targets);
    CHECK(eyes.uses_runtime_depth() == (depth != VK_FORMAT_UNDEFINED));
    for (uint32_t f = 0; f < 3; ++f) {
      std::array<XrEyeFrame, 2> frames;
      for (int e = 0; e < 2; ++e) {
        frames[e].color_index = f % 2;
        frames[e].depth_index = f % 2;
        frames[e].view = eye_render_view(eye_view(e), 0.05f, 100.f);
      }
      eyes.render(0.5 + f / 90.0, frames);
    }
    CHECK(eyes.frames_rendered() == 3);
    eyes.detach();
  }
  CHECK(source.asked.size() == 3);  // one snapshot per frame, shared by both eyes
  CHECK(source.asked[2] == doctest::Approx(0.5 + 2 / 90.0));
  REQUIRE(captures.size() == 2);  // frames 0 and 2
  CHECK(captures[0].frame == 0);
  CHECK(captures[1].frame == 2);
  for (const auto& px : pixels) {
    REQUIRE(px.size() == size_t(kEye.width) * kEye.height * 4);
    // The curtain's middle, seen by the left eye, is cloth; the top corner is sky.
    const glm::vec3 mid = project_to_pixel(captures[0].view, {0.f, 1.5f, -1.f}, {float(kEye.width), float(kEye.height)});
    CHECK(test::is_cloth_green(test::eye_pixel(px, kEye, int(mid.x), int(mid.y))));
    CHECK(test::is_sky(test::eye_pixel(px, kEye, 2, 2)));
    // 0.6 m at 1 m across a 1.4-rad-wide eye: about a third of the width, squared-ish.
    const int green = test::count_cloth_green(px, kEye);
    CHECK(green > int(kEye.width * kEye.height) / 20);
    CHECK(green < int(kEye.width * kEye.height) / 2);
  }
  CHECK(ctx.validation_errors() == 0);
}

}  // namespace

TEST_CASE("XR eyes drawn by the renderer into runtime colour and depth images, left eye read back") {
  WEFT_SKIP_IF(!test::vulkan_available(), "no usable Vulkan device");
  run_frames(VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_D32_SFLOAT);
}

TEST_CASE("XR eyes without runtime depth keep their own depth and a BGRA capture comes back as RGBA") {
  WEFT_SKIP_IF(!test::vulkan_available(), "no usable Vulkan device");
  run_frames(VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_UNDEFINED);
}

TEST_CASE("capture must be asked for before attach") {
  WEFT_SKIP_IF(!test::vulkan_available(), "no usable Vulkan device");
  VulkanContext ctx(test::validated_options());
  ctx.create_device();
  CurtainSource source;
  FakeSwapchains swapchains(ctx, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_UNDEFINED);
  SceneEyeRenderer eyes(make_snapshot_mesh(source.world.model()), SceneProps{}, source);
  eyes.attach(ctx, swapchains.targets);
  CHECK_THROWS_AS(eyes.capture_left_eye(1, [](const EyeCapture&) {}), std::logic_error);
  std::array<XrEyeFrame, 2> frames;
  frames[0].color_index = 5;  // out of range
  CHECK_THROWS_AS(eyes.render(0.0, frames), std::out_of_range);
  eyes.detach();
  CHECK(ctx.validation_errors() == 0);
}
