#pragma once
// OpenXR poses and fields of view into the sim's and renderer's types. OpenXR and the sim share
// conventions (metres, right-handed, y up, -z forward), so positions copy across; only the
// quaternion's storage order differs: XrQuaternionf is (x, y, z, w), glm::quat is built as (w, x, y, z).
#include <glm/glm.hpp>
#include <openxr/openxr.h>

#include "sim/pose.h"

namespace weft::xr {

Pose to_pose(const XrPosef& pose);
XrPosef to_xr(const Pose& pose);

// a then b: the pose b given in a's frame, expressed in a's parent frame.
Pose compose(const Pose& a, const Pose& b);
// The parent's pose in the pose's own frame: compose(p, inverse_pose(p)) is the identity.
Pose inverse_pose(const Pose& p);

// Rigid transform of the pose as a matrix (parent from local).
glm::mat4 to_matrix(const Pose& pose);
// View matrix of an eye: local from parent, the inverse of the eye's pose.
glm::mat4 view_matrix(const Pose& eye);

// Asymmetric perspective from an OpenXR field of view for Vulkan clip space: x right, y down,
// depth 0 at near_m and 1 at far_m. Angles are radians, left and down negative.
glm::mat4 vulkan_projection(const XrFovf& fov, float near_m, float far_m);

}  // namespace weft::xr
