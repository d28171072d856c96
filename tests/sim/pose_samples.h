#pragma once
// Poses and pose samples for tests that drive hands and trackers by hand: a position, no rotation.
#include <glm/glm.hpp>

#include "sim/pose.h"

namespace weft::test {

inline Pose at(glm::vec3 p) {
  Pose pose;
  pose.position = p;
  return pose;
}

inline PoseSample sample(Device d, double t, glm::vec3 p) {
  PoseSample s;
  s.device = d;
  s.time = t;
  s.pose = at(p);
  return s;
}

}  // namespace weft::test
