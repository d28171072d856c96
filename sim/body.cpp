#include "sim/body.h"

#include <glm/gtc/quaternion.hpp>

namespace weft {

BodyPart* Body::find(const std::string& name) {
  for (BodyPart& p : parts)
    if (p.name == name) return &p;
  return nullptr;
}

Body make_mannequin(const Pose& place, float height, float mu_static, float mu_kinetic) {
  const float s = height / 1.75f;
  const glm::quat upright(1.f, 0.f, 0.f, 0.f);                                            // capsule along y
  const glm::quat across = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0.f, 0.f, 1.f));  // along x
  const glm::quat forward = glm::angleAxis(glm::half_pi<float>(), glm::vec3(1.f, 0.f, 0.f)); // along z
  Body body;
  // name, shape, centre (m at 1.75 m, in the mannequin's frame), axis, radius, half length
  auto part = [&](const char* name, ColliderShape shape, glm::vec3 centre, glm::quat axis, float r, float hl) {
    BodyPart p;
    p.name = name;
    Collider& c = p.collider;
    c.shape = shape;
    c.radius = r * s;
    c.half_length = hl * s;
    c.pose = Pose{place.transform_point(centre * s), glm::normalize(place.orientation * axis)};
    c.previous_pose = c.pose;
    c.mu_static = mu_static;
    c.mu_kinetic = mu_kinetic;
    c.body = true;
    body.parts.push_back(std::move(p));
  };
  using S = ColliderShape;
  part("head", S::Sphere, {0.f, 1.63f, 0.f}, upright, 0.10f, 0.f);
  part("neck", S::Capsule, {0.f, 1.49f, 0.f}, upright, 0.055f, 0.04f);
  part("chest", S::Capsule, {0.f, 1.30f, 0.f}, across, 0.13f, 0.05f);
  part("shoulders", S::Capsule, {0.f, 1.42f, 0.f}, across, 0.07f, 0.14f);
  part("waist", S::Capsule, {0.f, 1.10f, 0.f}, across, 0.12f, 0.03f);
  part("hips", S::Capsule, {0.f, 0.95f, 0.f}, across, 0.13f, 0.05f);
  for (int side = -1; side <= 1; side += 2) {
    const bool left = side < 0;  // the mannequin's left is its -x (it faces -z)
    const float x = float(side);
    part(left ? "left_upper_arm" : "right_upper_arm", S::Capsule, {0.23f * x, 1.25f, 0.f}, upright, 0.05f, 0.12f);
    part(left ? "left_forearm" : "right_forearm", S::Capsule, {0.24f * x, 0.97f, 0.f}, upright, 0.04f, 0.11f);
    part(left ? "left_thigh" : "right_thigh", S::Capsule, {0.10f * x, 0.68f, 0.f}, upright, 0.075f, 0.16f);
    part(left ? "left_shin" : "right_shin", S::Capsule, {0.10f * x, 0.29f, 0.f}, upright, 0.055f, 0.15f);
    part(left ? "left_foot" : "right_foot", S::Capsule, {0.10f * x, 0.045f, -0.05f}, forward, 0.045f, 0.07f);
  }
  return body;
}

void drive_part(BodyPart& part, Device device, const Pose& device_start) {
  Collider& c = part.collider;
  c.follows = device;
  c.grip = Pose{device_start.inverse_transform_point(c.pose.position),
                glm::normalize(glm::conjugate(device_start.orientation) * c.pose.orientation)};
}

}  // namespace weft
