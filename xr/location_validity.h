#pragma once
// Whether a located pose may enter the sim. A runtime reports validity per location through
// flags; a pose whose position or orientation is flagged invalid, or that holds NaN, Inf or a
// non-unit quaternion, is rejected and counted, never forwarded.
#include <cstdint>

#include <openxr/openxr.h>

#include "sim/pose.h"

namespace weft::xr {

// Position and orientation flagged valid (tracked or inferred both count: a runtime may infer a
// controller briefly occluded).
bool location_flags_valid(XrSpaceLocationFlags flags);
// Finite position and a unit quaternion (|q|^2 within 1e-3 of 1, the sim's own test).
bool pose_finite_unit(const Pose& pose);

struct PoseValidity {
  uint64_t accepted = 0;
  uint64_t rejected = 0;  // invalid flags or bad numbers

  // Returns whether the pose may be used, and counts it.
  bool check(XrSpaceLocationFlags flags, const Pose& pose) {
    const bool ok = location_flags_valid(flags) && pose_finite_unit(pose);
    ++(ok ? accepted : rejected);
    return ok;
  }
};

}  // namespace weft::xr
