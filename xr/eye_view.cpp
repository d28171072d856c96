#include "xr/eye_view.h"

#include "xr/pose_convert.h"

namespace weft::xr {

RenderView eye_render_view(const XrView& view, float near_m, float far_m) {
  const Pose eye = to_pose(view.pose);
  RenderView out;
  out.view = view_matrix(eye);
  out.projection = vulkan_projection(view.fov, near_m, far_m);
  out.eye = eye.position;
  return out;
}

}  // namespace weft::xr
