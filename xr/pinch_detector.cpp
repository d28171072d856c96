#include "xr/pinch_detector.h"

#include <cmath>

namespace weft::xr {

bool pinch_distance(const XrHandJointLocationEXT* joints, uint32_t joint_count, float& distance_m) {
  if (joints == nullptr || joint_count <= XR_HAND_JOINT_INDEX_TIP_EXT) return false;
  const auto& thumb = joints[XR_HAND_JOINT_THUMB_TIP_EXT];
  const auto& index = joints[XR_HAND_JOINT_INDEX_TIP_EXT];
  if (!(thumb.locationFlags & XR_SPACE_LOCATION_POSITION_VALID_BIT) ||
      !(index.locationFlags & XR_SPACE_LOCATION_POSITION_VALID_BIT))
    return false;
  const float dx = thumb.pose.position.x - index.pose.position.x;
  const float dy = thumb.pose.position.y - index.pose.position.y;
  const float dz = thumb.pose.position.z - index.pose.position.z;
  distance_m = std::sqrt(dx * dx + dy * dy + dz * dz);
  return std::isfinite(distance_m);
}

Edge PinchDetector::update(const XrHandJointLocationEXT* joints, uint32_t joint_count) {
  float d = 0.f;
  if (!pinch_distance(joints, joint_count, d)) {
    ++dropped_;
    return Edge::None;
  }
  last_distance_ = d;
  return latch_.update(d);
}

}  // namespace weft::xr
