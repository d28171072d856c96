#pragma once
// One located OpenXR view (pose and field of view in the reference space, at the predicted display
// time) as the renderer's RenderView: the view matrix is the inverse of the eye's pose, the
// projection the eye's asymmetric frustum in Vulkan clip space.
#include <openxr/openxr.h>

#include "engine/camera.h"

namespace weft::xr {

RenderView eye_render_view(const XrView& view, float near_m, float far_m);

}  // namespace weft::xr
