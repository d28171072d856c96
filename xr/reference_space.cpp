#include "xr/reference_space.h"

namespace weft::xr {

ReferenceSpaceChoice choose_reference_space(const std::vector<XrReferenceSpaceType>& offered,
                                            float standing_eye_height_m) {
  ReferenceSpaceChoice c;
  for (XrReferenceSpaceType t : offered)
    if (t == XR_REFERENCE_SPACE_TYPE_STAGE) {
      c.type = t;
      c.name = "STAGE";
      return c;
    }
  // LOCAL is always offered (the spec requires it); the floor is assumed below the starting head.
  c.type = XR_REFERENCE_SPACE_TYPE_LOCAL;
  c.pose_in_reference.position.y = -standing_eye_height_m;
  c.name = "LOCAL";
  return c;
}

}  // namespace weft::xr
