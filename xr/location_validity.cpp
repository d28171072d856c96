#include "xr/location_validity.h"

#include <cmath>

namespace weft::xr {

bool location_flags_valid(XrSpaceLocationFlags flags) {
  constexpr XrSpaceLocationFlags need = XR_SPACE_LOCATION_POSITION_VALID_BIT | XR_SPACE_LOCATION_ORIENTATION_VALID_BIT;
  return (flags & need) == need;
}

bool pose_finite_unit(const Pose& pose) {
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(pose.position[k])) return false;
  const float n = glm::dot(pose.orientation, pose.orientation);
  return std::isfinite(n) && std::abs(n - 1.f) < 1e-3f;
}

}  // namespace weft::xr
