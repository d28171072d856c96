#include "xr/projection_layer.h"

#include "xr/xr_check.h"

namespace weft::xr {

const XrCompositionLayerProjection& ProjectionLayer::build(XrSpace space, const std::array<EyeSubmission, 2>& eyes,
                                                           float near_m, float far_m) {
  for (size_t e = 0; e < 2; ++e) {
    const EyeSubmission& in = eyes[e];
    const XrRect2Di rect{{0, 0}, in.extent};
    XrCompositionLayerProjectionView& v = views_[e];
    v = xr_struct<XrCompositionLayerProjectionView>(XR_TYPE_COMPOSITION_LAYER_PROJECTION_VIEW);
    v.pose = in.pose;
    v.fov = in.fov;
    v.subImage.swapchain = in.color;
    v.subImage.imageRect = rect;
    v.subImage.imageArrayIndex = 0;
    if (in.depth == XR_NULL_HANDLE) continue;
    XrCompositionLayerDepthInfoKHR& d = depth_[e];
    d = xr_struct<XrCompositionLayerDepthInfoKHR>(XR_TYPE_COMPOSITION_LAYER_DEPTH_INFO_KHR);
    d.subImage.swapchain = in.depth;
    d.subImage.imageRect = rect;
    d.subImage.imageArrayIndex = 0;
    // vulkan_projection: depth 0 at the near plane, 1 at the far plane (not reversed).
    d.minDepth = 0.f;
    d.maxDepth = 1.f;
    d.nearZ = near_m;
    d.farZ = far_m;
    v.next = &d;
  }
  layer_ = xr_struct<XrCompositionLayerProjection>(XR_TYPE_COMPOSITION_LAYER_PROJECTION);
  layer_.space = space;
  layer_.viewCount = 2;
  layer_.views = views_.data();
  return layer_;
}

}  // namespace weft::xr
