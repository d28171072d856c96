#include "engine/direct_world_input.h"

#include <limits>

namespace weft {

bool DirectWorldInput::submit_pose(const PoseSample& raw) {
  PoseSample sample = raw;
  if (conditioner_.condition(sample) != ConditionVerdict::Accepted) return false;
  if (!world_.submit_pose(sample)) return false;
  if (sample.device == Device::LeftHand || sample.device == Device::RightHand) {
    HandState& h = hands_[device_index(sample.device)];
    h.active = true;
    h.pose = sample.pose;
  }
  return true;
}

size_t DirectWorldInput::grab(Hand hand, const Pose& pose, float radius) {
  HandState& h = hands_[int(hand)];
  release(hand);
  h.active = true;
  h.pose = pose;
  const size_t held_by_world = world_.grab(hand, pose, radius);
  h.grabbing = true;
  if (held_by_world > 0) return held_by_world;

  // Stand-in grasp: every vertex within the radius, or the nearest one within 3 radii.
  ClothState& state = world_.mutable_state();
  const auto& x = state.position;
  uint32_t nearest = 0;
  float nearest_d2 = std::numeric_limits<float>::max();
  for (uint32_t i = 0; i < x.size(); ++i) {
    const glm::vec3 d = x[i] - pose.position;
    const float d2 = glm::dot(d, d);
    if (d2 <= radius * radius) h.vertices.push_back(i);
    if (d2 < nearest_d2) nearest_d2 = d2, nearest = i;
  }
  if (h.vertices.empty() && nearest_d2 <= 9.f * radius * radius) h.vertices.push_back(nearest);
  for (uint32_t i : h.vertices) {
    h.offsets.push_back(pose.inverse_transform_point(x[i]));
    state.kinematic[i] = 1;
    state.kinematic_velocity[i] = glm::vec3(0.f);
  }
  if (h.vertices.empty()) h.grabbing = false;
  return h.vertices.size();
}

void DirectWorldInput::release(Hand hand) {
  world_.release(hand);
  HandState& h = hands_[int(hand)];
  ClothState& state = world_.mutable_state();
  for (uint32_t i : h.vertices) state.kinematic[i] = world_.model().pinned[i];
  h.vertices.clear();
  h.offsets.clear();
  h.grabbing = false;
}

void DirectWorldInput::before_step() {
  ClothState& state = world_.mutable_state();
  const float inv_h = float(1.0 / world_.time_step());
  for (const HandState& h : hands_)
    for (size_t k = 0; k < h.vertices.size(); ++k) {
      const uint32_t i = h.vertices[k];
      state.kinematic_velocity[i] = (h.pose.transform_point(h.offsets[k]) - state.position[i]) * inv_h;
    }
}

void DirectWorldInput::reset() {
  conditioner_.reset();
  for (HandState& h : hands_) {
    h.vertices.clear();
    h.offsets.clear();
    h.grabbing = false;
  }
}

void DirectWorldInput::fill_devices(ClothSnapshot& snapshot) const {
  for (int k = 0; k < 2; ++k) {
    const HandState& h = hands_[k];
    snapshot.hands[k].active = h.active;
    snapshot.hands[k].grabbing = h.grabbing;
    snapshot.hands[k].position = h.pose.position;
    snapshot.hands[k].orientation = h.pose.orientation;
    for (uint32_t i : held(Hand(k))) {
      snapshot.grasped[i] |= uint8_t(1u << k);
      snapshot.grasped[i] &= uint8_t(~4u);  // held by a hand, not a pin
    }
  }
}

}  // namespace weft
