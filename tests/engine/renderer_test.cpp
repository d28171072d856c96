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

namespace weft {

// A cut or a removal reaches the renderer as a new topology generation in the snapshot: the triangles it
// draws are the snapshot's, copied into a frame slot only when the generation changes, and a snapshot beyond
// the capacities reserved at load grows the buffers instead of failing.
TEST_CASE("renderer draws the snapshot's topology: half the triangles removed leave the background") {
  WEFT_SKIP_IF(!test::vulkan_available(), "no usable Vulkan device");
  const World world = build_world(hanging_grid_scene(8));
  VulkanContext ctx(test::validated_options());
  ctx.create_device();
  const SnapshotMesh mesh = make_snapshot_mesh(world.model());
  Renderer renderer(ctx, OffscreenTarget::kFormat, mesh, SceneProps{}, 1);
  CHECK(renderer.vertex_capacity() == 2 * mesh.material.size());
  OffscreenTarget target(ctx, {160, 120});
  ClothSnapshot snap;
  fill_snapshot(world, snap);
  snap.topology.generation = 0;
  snap.topology.triangles = mesh.triangles;
  snap.topology.material = mesh.material;
  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const glm::vec3& p : snap.position) lo = glm::min(lo, p), hi = glm::max(hi, p);
  const glm::vec3 mid = 0.5f * (lo + hi);
  OrbitCamera camera;
  camera.target = mid;
  camera.distance = 2.5f;
  const RenderView view = camera.view(160.f / 120.f);
  auto pixel = [&](const std::vector<uint8_t>& img, glm::vec3 at) {
    const glm::vec3 px = project_to_pixel(view, at, {160.f, 120.f});
    const size_t i = (size_t(px.y) * 160 + size_t(px.x)) * 4;
    return glm::ivec3(img[i], img[i + 1], img[i + 2]);
  };
  // Points a quarter of the width into each side, at mid height.
  const glm::vec3 left(glm::mix(lo.x, hi.x, 0.25f), mid.y, mid.z), right(glm::mix(lo.x, hi.x, 0.75f), mid.y, mid.z);
  const std::vector<uint8_t> full = target.render(renderer, snap, view, RenderSettings{});

  ClothSnapshot none = snap;  // every triangle removed: the background
  none.topology.generation = 1;
  none.topology.triangles.clear();
  const std::vector<uint8_t> empty = target.render(renderer, none, view, RenderSettings{});
  REQUIRE(pixel(full, right) != pixel(empty, right));  // the cloth shows there
  REQUIRE(pixel(full, left) != pixel(empty, left));

  ClothSnapshot half = snap;  // the right half removed
  half.topology.generation = 2;
  half.topology.triangles.clear();
  for (const auto& t : snap.topology.triangles)
    if (snap.position[t[0]].x < mid.x && snap.position[t[1]].x < mid.x && snap.position[t[2]].x < mid.x)
      half.topology.triangles.push_back(t);
  const std::vector<uint8_t> cut = target.render(renderer, half, view, RenderSettings{});
  CHECK(pixel(cut, right) == pixel(empty, right));
  CHECK(pixel(cut, left) == pixel(full, left));

  // Three times the vertices (far beyond the 2x reserved): the buffers grow once and it still draws.
  ClothSnapshot big = half;
  const size_t n = snap.position.size();
  big.topology.generation = 3;
  big.resize(3 * n);
  big.topology.material.resize(3 * n, glm::vec2(0.f));
  for (size_t i = n; i < 3 * n; ++i) big.position[i] = snap.position[i % n] + glm::vec3(0.f, -50.f, 0.f);
  const std::vector<uint8_t> grown = target.render(renderer, big, view, RenderSettings{});
  CHECK(renderer.capacity_growths() == 1);
  CHECK(renderer.vertex_capacity() >= 3 * n);
  CHECK(pixel(grown, left) == pixel(full, left));
  CHECK(pixel(grown, right) == pixel(empty, right));
  big.topology.triangles.push_back({0, 1, uint32_t(3 * n)});  // names a vertex it does not have
  big.topology.generation = 4;
  CHECK_THROWS_AS(renderer.upload(0, big), std::invalid_argument);
  CHECK(ctx.validation_errors() == 0);
}

}  // namespace weft
