#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "engine/runtime.h"
#include "engine/offscreen_target.h"
#include "engine/renderer.h"
#include "engine/snapshot_builder.h"
#include "tests/skip.h"
#include "vulkan_probe.h"

namespace weft {

TEST_CASE("renderer rejects a snapshot whose vertex count differs from the mesh") {
  WEFT_SKIP_IF(!test::vulkan_available(), "no usable Vulkan device");
  const World world = build_world(builtin_table_scene());
  VulkanContext ctx(test::validated_options());
  ctx.create_device();
  Renderer renderer(ctx, OffscreenTarget::kFormat, make_snapshot_mesh(world.model()), SceneProps{});
  ClothSnapshot snap;
  snap.resize(renderer.vertex_count() + 1);
  CHECK_THROWS_AS(renderer.upload(0, snap), std::invalid_argument);
  CHECK_THROWS_AS(renderer.upload(renderer.frames_in_flight(), snap), std::exception);
  CHECK(ctx.validation_errors() == 0);
}

TEST_CASE("renderer takes the depth format targets bring, and refuses one it cannot render depth into") {
  WEFT_SKIP_IF(!test::vulkan_available(), "no usable Vulkan device");
  const World world = build_world(builtin_table_scene());
  VulkanContext ctx(test::validated_options());
  ctx.create_device();
  const SnapshotMesh mesh = make_snapshot_mesh(world.model());
  const SceneProps props;
  Renderer chosen(ctx, OffscreenTarget::kFormat, mesh, props);
  CHECK(Renderer::depth_attachment_supported(ctx.physical_device(), chosen.depth_format()));
  CHECK(chosen.depth_format() == Renderer::kDepthFormats[0]);  // D32_SFLOAT on every desktop driver
  Renderer given(ctx, OffscreenTarget::kFormat, mesh, props, 2, VK_FORMAT_D16_UNORM);
  CHECK(given.depth_format() == VK_FORMAT_D16_UNORM);
  CHECK_THROWS_AS(Renderer(ctx, OffscreenTarget::kFormat, mesh, props, 2, VK_FORMAT_R8G8B8A8_UNORM),
                  std::runtime_error);
  CHECK(ctx.validation_errors() == 0);
}

TEST_SUITE("validation") {
  TEST_CASE("frame time at 1280x720 with a 16k-vertex cloth") {
    WEFT_SKIP_IF(!test::vulkan_available(), "no usable Vulkan device");
    const World world = build_world(hanging_grid_scene(126));  // 127^2 = 16129 vertices
    VulkanContext ctx(VulkanContextOptions{});  // no validation: it would dominate the timing
    ctx.create_device();
    Renderer renderer(ctx, OffscreenTarget::kFormat, make_snapshot_mesh(world.model()), SceneProps{});
    OffscreenTarget target(ctx, {1280, 720});
    OrbitCamera camera;
    camera.target = glm::vec3(0.f, 1.f, 0.f);
    const RenderView view = camera.view(1280.f / 720.f);
    ClothSnapshot snap;
    fill_snapshot(world, snap);
    std::vector<double> ms;
    for (int f = 0; f < 40; ++f) {
      const auto t0 = std::chrono::steady_clock::now();
      target.render(renderer, snap, view, RenderSettings{});
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    ms.erase(ms.begin(), ms.begin() + 5);  // warm-up (pipeline JIT, first allocations)
    std::sort(ms.begin(), ms.end());
    std::printf("render 1280x720, %zu vertices, %s: p50 %.2f ms, min %.2f ms, max %.2f ms (upload + draw + read back)\n",
                renderer.vertex_count(), ctx.device_name().c_str(), ms[ms.size() / 2], ms.front(), ms.back());
    CHECK(renderer.vertex_count() == 16129);
    CHECK(ms[ms.size() / 2] < 1000.0);
  }
}

}  // namespace weft
