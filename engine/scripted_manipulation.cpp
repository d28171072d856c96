#include "engine/scripted_manipulation.h"

#include <algorithm>
#include <cmath>

namespace weft {
namespace {

float ease(double t0, double t1, double t) {
  const float s = float(std::clamp((t - t0) / (t1 - t0), 0.0, 1.0));
  return s * s * (3.f - 2.f * s);
}

}  // namespace

TwoHandScript::TwoHandScript(glm::vec3 left_corner, glm::vec3 right_corner) : corner_{left_corner, right_corner} {}

glm::vec3 TwoHandScript::hand_position(int hand, double t) const {
  const float side = hand == 0 ? -1.f : 1.f;
  glm::vec3 p = corner_[hand] + glm::vec3(0.f, 0.25f * (1.f - ease(0.0, kGrabTime, t)), 0.f);  // approach
  p += glm::vec3(0.f, 0.55f, -0.45f) * ease(kGrabTime, kLiftEnd, t);  // lift, back over the table centre
  p += glm::vec3(side * 0.10f, 0.f, 0.f) * ease(kLiftEnd, kStretchEnd, t);                  // stretch
  if (t > kStretchEnd && t < kShakeEnd) {                                                   // shake, 3 Hz
    // Swelling and fading amplitude: the hands are still when they let go, so the cloth drops rather than
    // being flung off the table.
    const double s = (t - kStretchEnd) / (kShakeEnd - kStretchEnd);
    const float amplitude = float(std::sin(3.14159265358979 * s));
    const double w = 2.0 * 3.14159265358979 * 3.0 * (t - kStretchEnd);
    p += amplitude * glm::vec3(0.f, 0.06f * float(std::sin(w)), 0.03f * float(std::sin(2.0 * w)));
  }
  p += glm::vec3(side * 0.15f, 0.25f, 0.f) * ease(kShakeEnd, kShakeEnd + 0.5, t);  // hands away
  return p;
}

const char* TwoHandScript::phase(double t) {
  if (t < kGrabTime) return "approach";
  if (t < kLiftEnd) return "lift";
  if (t < kStretchEnd) return "stretch";
  if (t < kShakeEnd) return "shake";
  return "fall";
}

void TwoHandScript::drive(double t, InputSink& sink) {
  if (idle_) return;
  last_drive_t_ = t;
  for (int k = 0; k < 2; ++k) {
    PoseSample s;
    s.time = t;
    s.device = k == 0 ? Device::LeftHand : Device::RightHand;
    s.pose.position = hand_position(k, t);
    sink.submit_pose(s);
  }
  if (!grabbed_ && t >= kGrabTime) {
    grabbed_ = true;
    for (int k = 0; k < 2; ++k) sink.grab(Hand(k), Pose{hand_position(k, t), {1.f, 0.f, 0.f, 0.f}}, 0.05f);
  }
  if (!released_ && t >= kShakeEnd) {
    released_ = true;
    sink.release(Hand::Left);
    sink.release(Hand::Right);
  }
}

}  // namespace weft
