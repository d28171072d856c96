#pragma once
// The one path by which hands and trackers reach the cloth: pose samples plus grab/release events.
// Desktop mouse, scripted demos and OpenXR controllers all talk to an InputSink; the app backs it with
// a World directly (single thread) or with the runtime's input queue to the sim thread.
#include <cstddef>

#include "sim/pose.h"
#include "sim/world.h"

namespace weft {

class InputSink {
 public:
  virtual ~InputSink() = default;
  // Returns false when the sample was rejected (invalid pose).
  virtual bool submit_pose(const PoseSample& sample) = 0;
  // Takes hold of the cloth within radius of pose.position; returns how many vertices are held (0: none
  // known yet when the grab is queued to another thread).
  virtual size_t grab(Hand hand, const Pose& pose, float radius) = 0;
  virtual void release(Hand hand) = 0;
};


}  // namespace weft
