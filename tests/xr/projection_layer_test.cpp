#include <doctest/doctest.h>

#include "xr/projection_layer.h"

using namespace weft::xr;

namespace {
// Handles are opaque: any distinct non-null values do for filling structs.
template <typename H>
H fake(uint64_t v) {
  return reinterpret_cast<H>(static_cast<uintptr_t>(v));
}
std::array<EyeSubmission, 2> eyes(bool depth) {
  std::array<EyeSubmission, 2> e{};
  for (int i = 0; i < 2; ++i) {
    e[i].pose.orientation.w = 1.f;
    e[i].pose.position = {i == 0 ? -0.032f : 0.032f, 1.6f, 0.f};
    e[i].fov = {-0.8f, 0.7f, 0.75f, -0.78f};
    e[i].color = fake<XrSwapchain>(0x100 + i);
    e[i].depth = depth ? fake<XrSwapchain>(0x200 + i) : XR_NULL_HANDLE;
    e[i].extent = {1280, 1440};
  }
  return e;
}
}  // namespace

TEST_CASE("a projection layer carries each eye's pose, fov and whole colour image") {
  ProjectionLayer pl;
  const XrSpace space = fake<XrSpace>(0x42);
  const XrCompositionLayerProjection& l = pl.build(space, eyes(false), 0.05f, 100.f);
  CHECK(l.type == XR_TYPE_COMPOSITION_LAYER_PROJECTION);
  CHECK(l.space == space);
  REQUIRE(l.viewCount == 2);
  CHECK(pl.header() == reinterpret_cast<const XrCompositionLayerBaseHeader*>(&l));
  for (int i = 0; i < 2; ++i) {
    const XrCompositionLayerProjectionView& v = l.views[i];
    CHECK(v.type == XR_TYPE_COMPOSITION_LAYER_PROJECTION_VIEW);
    CHECK(v.next == nullptr);  // no depth offered
    CHECK(v.subImage.swapchain == fake<XrSwapchain>(0x100 + i));
    CHECK(v.subImage.imageRect.offset.x == 0);
    CHECK(v.subImage.imageRect.extent.width == 1280);
    CHECK(v.subImage.imageRect.extent.height == 1440);
    CHECK(v.fov.angleLeft == -0.8f);
    CHECK(v.pose.position.x == (i == 0 ? -0.032f : 0.032f));
  }
}

TEST_CASE("with depth swapchains each view chains a depth info with the projection's range") {
  ProjectionLayer pl;
  const XrCompositionLayerProjection& l = pl.build(fake<XrSpace>(1), eyes(true), 0.05f, 100.f);
  for (int i = 0; i < 2; ++i) {
    const auto* d = static_cast<const XrCompositionLayerDepthInfoKHR*>(l.views[i].next);
    REQUIRE(d != nullptr);
    CHECK(d->type == XR_TYPE_COMPOSITION_LAYER_DEPTH_INFO_KHR);
    CHECK(d->next == nullptr);
    CHECK(d->subImage.swapchain == fake<XrSwapchain>(0x200 + i));
    CHECK(d->subImage.imageRect.extent.width == 1280);
    CHECK(d->minDepth == 0.f);
    CHECK(d->maxDepth == 1.f);
    CHECK(d->nearZ == 0.05f);
    CHECK(d->farZ == 100.f);
  }
  // Built again without depth (e.g. a frame after depth was turned off): no stale chain.
  const XrCompositionLayerProjection& l2 = pl.build(fake<XrSpace>(1), eyes(false), 0.05f, 100.f);
  CHECK(l2.views[0].next == nullptr);
  CHECK(l2.views[1].next == nullptr);
}
