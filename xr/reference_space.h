#pragma once
// Which reference space the scene lives in. Weft's scenes are laid out in stage coordinates (floor
// at y = 0, the user standing near the origin). STAGE gives exactly that; without it, LOCAL has its
// origin at the user's head when the session started, so the space is made with its origin a
// standing eye height below that, and the scene still appears in front of the user at a sensible
// height rather than a metre and a half above their eyes.
#include <string>
#include <vector>

#include <openxr/openxr.h>

namespace weft::xr {

struct ReferenceSpaceChoice {
  XrReferenceSpaceType type = XR_REFERENCE_SPACE_TYPE_LOCAL;
  XrPosef pose_in_reference{{0.f, 0.f, 0.f, 1.f}, {0.f, 0.f, 0.f}};  // XrReferenceSpaceCreateInfo::poseInReferenceSpace
  std::string name;  // "STAGE" or "LOCAL"
};

ReferenceSpaceChoice choose_reference_space(const std::vector<XrReferenceSpaceType>& offered,
                                            float standing_eye_height_m = 1.6f);

}  // namespace weft::xr
