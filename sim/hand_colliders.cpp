#include "sim/hand_colliders.h"

#include <glm/gtc/quaternion.hpp>

namespace weft {

std::array<Collider, 2> make_hand_colliders(Hand hand, const HandColliderSizes& sizes, const Pose& start) {
  // A capsule's axis is its local y: turned onto the grip's z axis.
  const glm::quat along_z = glm::angleAxis(glm::half_pi<float>(), glm::vec3(1.f, 0.f, 0.f));
  std::array<Collider, 2> out;
  for (Collider& c : out) {
    c.shape = ColliderShape::Capsule;
    c.follows = hand_device(hand);
    c.body = true;
    c.mu_static = sizes.mu_static;
    c.mu_kinetic = sizes.mu_kinetic;
  }
  out[0].radius = sizes.palm_radius;
  out[0].half_length = sizes.palm_half_length;
  out[0].grip = Pose{glm::vec3(0.f), along_z};
  out[1].radius = sizes.forearm_radius;
  out[1].half_length = 0.5f * sizes.forearm_length;
  out[1].grip = Pose{glm::vec3(0.f, 0.f, sizes.wrist_offset + 0.5f * sizes.forearm_length), along_z};
  for (Collider& c : out) {
    c.pose = Pose{start.transform_point(c.grip->position), glm::normalize(start.orientation * c.grip->orientation)};
    c.previous_pose = c.pose;
    c.parked = c.wait_clear = true;  // not seen yet: on its device once it lands clear of the cloth (sim/driven_collider.h)
  }
  return out;
}

}  // namespace weft
