#pragma once
// An InputSink that drives a World on the calling thread (desktop window, headless demo, tests).
// While World::grab is not implemented (it returns 0 until the grasp layer of issue 3 lands), it
// holds the vertices itself: they become kinematic and follow the hand rigidly, with the velocity
// that lands them on the hand's target at the end of the next step.
#include <array>
#include <cstdint>
#include <vector>

#include "engine/input_sink.h"
#include "engine/pose_conditioner.h"
#include "engine/snapshot.h"

namespace weft {

// Every pose passes the PoseConditioner (on by default) before World::submit_pose.
class DirectWorldInput : public InputSink {
 public:
  explicit DirectWorldInput(World& world, const ConditionerConfig& conditioning = {})
      : world_(world), conditioner_(conditioning) {}

  bool submit_pose(const PoseSample& sample) override;
  size_t grab(Hand hand, const Pose& pose, float radius) override;
  void release(Hand hand) override;

  // Call right before World::step: sets the held vertices' imposed velocities.
  void before_step();
  // Call after World::reset: drops every hold.
  void reset();
  // Hand gizmos and per-hand grasp bits of the snapshot.
  void fill_devices(ClothSnapshot& snapshot) const;

  // The vertices the hand holds: the World's grasp (issue 3) or, when it took none, the stand-in's.
  const std::vector<uint32_t>& held(Hand hand) const {
    const std::vector<uint32_t>& by_world = world_.held_vertices(hand_device(hand)).vertex;
    return by_world.empty() ? hands_[int(hand)].vertices : by_world;
  }
  const Pose& hand_pose(Hand hand) const { return hands_[int(hand)].pose; }
  PoseConditioner& conditioner() { return conditioner_; }
  const PoseConditioner& conditioner() const { return conditioner_; }

 private:
  struct HandState {
    bool active = false;               // a pose arrived
    bool grabbing = false;
    Pose pose;
    std::vector<uint32_t> vertices;    // held by the stand-in grasp
    std::vector<glm::vec3> offsets;    // each held vertex in the hand frame at grab time
  };
  World& world_;
  PoseConditioner conditioner_;
  std::array<HandState, 2> hands_;
};

}  // namespace weft
