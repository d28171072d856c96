#pragma once
// What a located pose is worth. A runtime reports validity per location through flags: a pose goes to the
// sim with PoseSample::valid from them (the sim thread rejects and counts what is flagged or bad in numbers);
// a grab or a tracker clip waits for a pose that is both flagged valid and finite with a unit quaternion.
#include <openxr/openxr.h>

#include "sim/pose.h"

namespace weft::xr {

// Position and orientation flagged valid (tracked or inferred both count: a runtime may infer a
// controller briefly occluded).
bool location_flags_valid(XrSpaceLocationFlags flags);
// Finite position and a unit quaternion (|q|^2 within 1e-3 of 1, the sim's own test).
bool pose_finite_unit(const Pose& pose);

}  // namespace weft::xr
