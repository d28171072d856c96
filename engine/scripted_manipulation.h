#pragma once
// The scripted two-hand demo of `weft run --mode headless`: both hands grab the cloth's near corners,
// lift, stretch, shake, release, and the cloth falls back on the table. It drives an InputSink only,
// exactly as a person's hands would.
#include <glm/glm.hpp>

#include "engine/input_sink.h"

namespace weft {

class TwoHandScript {
 public:
  // Corner positions at rest; the hands approach them from above.
  TwoHandScript(glm::vec3 left_corner, glm::vec3 right_corner);

  static constexpr double kGrabTime = 0.4, kLiftEnd = 1.4, kStretchEnd = 1.9, kShakeEnd = 2.9, kEnd = 4.2;
  double duration() const { return kEnd; }
  // Sends this tick's poses and any grab/release due since the last call; t increases call to call.
  void drive(double t, InputSink& sink);
  // Where the corners are now (from the newest snapshot): for the first half of the approach the hands reach
  // for them there, as a person would for a corner that droops over a table edge, not for where it lay at
  // rest. Then the hands go for where the corners were: chasing them to the grab, each hand's palm pushed
  // its corner on and followed it, until both hands met mid-cloth at the 6 m/s speed cap (hanging.json).
  static constexpr double kTrackEnd = 0.5 * kGrabTime;
  void track_corners(glm::vec3 left, glm::vec3 right) {
    if (grabbed_ || last_drive_t_ >= kTrackEnd) return;
    corner_[0] = left;
    corner_[1] = right;
  }
  bool grabbed() const { return grabbed_; }
  // A script that sends nothing (a scene whose demo is itself, such as a garment sewing itself closed).
  void make_idle() { idle_ = true; }
  // Where hand (0 left, 1 right) is at time t.
  glm::vec3 hand_position(int hand, double t) const;
  static const char* phase(double t);

 private:
  glm::vec3 corner_[2];
  bool grabbed_ = false, released_ = false, idle_ = false;
  double last_drive_t_ = 0;  // the time of the last drive
};

}  // namespace weft
