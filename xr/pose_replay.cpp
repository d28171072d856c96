#include "xr/pose_replay.h"

#include <cmath>

#include "xr/location_validity.h"

namespace weft::xr {

namespace {
// Phase in [0, 1): 0-0.25 descend, 0.25-0.3 squeeze, 0.3-0.75 lift, 0.75-0.8 let go, then rise back.
float replay_phase(const ReplayConfig& c, double t) {
  double phase = std::fmod(t / c.period_s, 1.0);
  if (phase < 0) phase += 1.0;
  return float(phase);
}
}  // namespace

bool replay_holding(const ReplayConfig& c, double t) {
  const float p = replay_phase(c, t);
  return p >= 0.25f && p < 0.8f;
}

void track_replay_corner(ReplayConfig& c, Hand hand, const glm::vec3& corner, double t) {
  if (replay_holding(c, t)) return;
  (hand == Hand::Left ? c.left_corner : c.right_corner) = corner;
}

HandSample replay_hand(const ReplayConfig& c, Hand hand, double t) {
  const glm::vec3 corner = hand == Hand::Left ? c.left_corner : c.right_corner;
  const float p = replay_phase(c, t);
  float height = 0.f;
  float squeeze = 0.f;
  if (p < 0.25f) height = c.approach_m * (1.f - p / 0.25f);
  else if (p < 0.3f) squeeze = (p - 0.25f) / 0.05f;
  else if (p < 0.75f) height = c.lift_m * (p - 0.3f) / 0.45f, squeeze = 1.f;
  else if (p < 0.8f) height = c.lift_m, squeeze = 1.f - (p - 0.75f) / 0.05f;
  else height = c.lift_m + (c.approach_m - c.lift_m) * (p - 0.8f) / 0.2f;

  HandSample s;
  s.time = t;
  s.flags = XR_SPACE_LOCATION_POSITION_VALID_BIT | XR_SPACE_LOCATION_ORIENTATION_VALID_BIT |
            XR_SPACE_LOCATION_POSITION_TRACKED_BIT | XR_SPACE_LOCATION_ORIENTATION_TRACKED_BIT;
  s.grip.position = corner + glm::vec3(0.f, height, 0.f);
  s.squeeze = squeeze;
  s.squeeze_active = true;
  return s;
}

void MotionWatch::observe(Hand hand, const HandSample& s) {
  const int i = int(hand);
  if (moved_[i]) return;
  if (s.squeeze_active && s.squeeze > 0.5f) {
    moved_[i] = true;
    return;
  }
  if (!location_flags_valid(s.flags) || !pose_finite_unit(s.grip)) return;
  if (!seen_[i]) {
    seen_[i] = true;
    first_[i] = s.grip.position;
  } else if (glm::length(s.grip.position - first_[i]) > 0.005f) {
    moved_[i] = true;
  }
}

}  // namespace weft::xr
