#pragma once
// Rigid poses and timestamped pose samples of hands and trackers, as they enter the simulation.
#include <cstdint>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "sim/device.h"

namespace weft {

struct Pose {
  glm::vec3 position{0.f};                    // m, world frame (y up)
  glm::quat orientation{1.f, 0.f, 0.f, 0.f};  // unit quaternion (w, x, y, z)

  glm::vec3 transform_point(const glm::vec3& local) const { return position + orientation * local; }
  glm::vec3 inverse_transform_point(const glm::vec3& world) const {
    return glm::conjugate(orientation) * (world - position);
  }
};

struct PoseSample {
  double time = 0;      // s, on the simulation clock
  Device device = Device::LeftHand;
  Pose pose;
  bool valid = true;    // the tracking system's own validity flag
};

}  // namespace weft
