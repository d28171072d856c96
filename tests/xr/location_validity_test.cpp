#include <doctest/doctest.h>

#include <cmath>

#include "xr/location_validity.h"

using namespace weft;
using namespace weft::xr;

TEST_CASE("location flags: position and orientation must both be valid") {
  CHECK_FALSE(location_flags_valid(0));
  CHECK_FALSE(location_flags_valid(XR_SPACE_LOCATION_POSITION_VALID_BIT));
  CHECK_FALSE(location_flags_valid(XR_SPACE_LOCATION_ORIENTATION_VALID_BIT | XR_SPACE_LOCATION_POSITION_TRACKED_BIT));
  CHECK(location_flags_valid(XR_SPACE_LOCATION_POSITION_VALID_BIT | XR_SPACE_LOCATION_ORIENTATION_VALID_BIT));
}

TEST_CASE("a pose a grab or a clip may use: finite, with a unit quaternion") {
  Pose good;
  good.position = {0.f, 1.f, 0.f};
  CHECK(pose_finite_unit(good));
  Pose nan = good;
  nan.position.x = std::nanf("");
  CHECK_FALSE(pose_finite_unit(nan));
  Pose zero_q = good;
  zero_q.orientation = glm::quat(0.f, 0.f, 0.f, 0.f);  // what a runtime returns for an unlocated space
  CHECK_FALSE(pose_finite_unit(zero_q));
  Pose inf = good;
  inf.position.z = INFINITY;
  CHECK_FALSE(pose_finite_unit(inf));
}
