#pragma once
// The frame's one composition layer: a projection view per eye (pose and field of view as located,
// the eye's colour swapchain image), and with XR_KHR_composition_layer_depth a depth info chained
// to each view (the eye's depth swapchain image and the depth range the projection used), so the
// compositor can reproject by depth. Owns the structs the layer points into: build it, hand layer()
// to xrEndFrame, build again next frame. Never copied or moved (the pointers are into itself).
#include <array>

#include <openxr/openxr.h>

namespace weft::xr {

struct EyeSubmission {
  XrPosef pose{};
  XrFovf fov{};
  XrSwapchain color = XR_NULL_HANDLE;
  XrSwapchain depth = XR_NULL_HANDLE;  // null: no depth for this eye
  XrExtent2Di extent{0, 0};            // the whole swapchain image is the eye
};

class ProjectionLayer {
 public:
  ProjectionLayer() = default;
  ProjectionLayer(const ProjectionLayer&) = delete;
  ProjectionLayer& operator=(const ProjectionLayer&) = delete;

  // near_m / far_m: the planes the eyes' projections mapped to depth 0 and 1.
  const XrCompositionLayerProjection& build(XrSpace space, const std::array<EyeSubmission, 2>& eyes, float near_m,
                                            float far_m);
  const XrCompositionLayerProjection& layer() const { return layer_; }
  const XrCompositionLayerBaseHeader* header() const {
    return reinterpret_cast<const XrCompositionLayerBaseHeader*>(&layer_);
  }

 private:
  std::array<XrCompositionLayerProjectionView, 2> views_{};
  std::array<XrCompositionLayerDepthInfoKHR, 2> depth_{};
  XrCompositionLayerProjection layer_{};
};

}  // namespace weft::xr
