#pragma once
// The last guard on kinematic targets (hands, trackers) before the solver sees them, independent of the
// input conditioning in engine/ (which may be off, `--no-conditioning`): a device's target is followed by
// a point that moves no faster than max_speed, accelerates no harder than max_acceleration, turns no
// faster than max_angular_speed and never leaves the stage box. Within those limits the follower lands
// exactly on the target every tick (it adds no lag to plausible motion); a 1 km spike becomes a few
// centimetres of bounded motion, and no input whatever can take the cloth off the stage.
#include <glm/glm.hpp>

#include "sim/pose.h"

namespace weft {

// Where anything may be: an axis-aligned box in world coordinates, m (y up).
struct StageBounds {
  glm::vec3 lo{-20.f, -5.f, -20.f};
  glm::vec3 hi{20.f, 10.f, 20.f};
  bool contains(const glm::vec3& p) const {
    return p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y && p.z <= hi.z;
  }
  glm::vec3 clamp(const glm::vec3& p) const { return glm::clamp(p, lo, hi); }
};

struct KinematicLimits {
  bool enabled = true;
  float max_speed = 8.f;           // m/s: a fast hand (cloth manipulation stays below 5)
  float max_acceleration = 150.f;  // m/s^2: a hard shake is 30-60; a tracker jump is thousands
  float max_angular_speed = 8.f;   // rad/s: a quick wrist turn is 10-20; the cloth need not follow that fast
  StageBounds stage;
};

// The follower of one device, reset when the device's track is cleared or a grab re-anchors it.
struct SafeTarget {
  bool valid = false;
  Pose pose;                   // the safe pose at the current tick
  glm::vec3 velocity{0.f};     // its linear velocity over the last tick, m/s
  glm::vec3 smoothed_velocity{0.f};  // that velocity low-passed with kSmoothingTime: what a release may keep
  glm::vec3 last_target{0.f};  // the raw target of the last tick (clamped to the stage): its velocity
  bool catching_up = false;    // closing a jump (see advance_safe_target's catch_up_time)
};
inline constexpr float kSmoothingTime = 0.05f;  // s

// Advances `state` by one tick of h toward `target` (the raw pose at the end of the tick) and returns the
// new safe pose. Linear part: the velocity that lands on the target, v* = e/h, shortened so the follower
// can still brake (|v| <= sqrt(2 a_max |e|)), capped at max_speed, then changed by at most a_max h from the
// last tick's velocity; the result is clamped to the stage. Rotation: at most max_angular_speed h per
// tick along the shortest arc. An invalid state starts at the target (clamped to the stage).
// catch_up_time > 0: a jump (a target the follower cannot land on below max_speed, e.g. a tracker back
// after a gap 5-10 cm from where it was lost) is closed like an offset decaying with that time constant,
// the approach speed capped at |target velocity| + |e| / catch_up_time until the follower lands again.
// World sets it to the elastic's tau: the hand's patch catches up as the elastic alone would close the
// offset, not at up to max_speed (which whipped the cloth: `weft stress`, docs/stress.md).
Pose advance_safe_target(SafeTarget& state, const Pose& target, float h, const KinematicLimits& limits,
                         float catch_up_time = 0.f);

// A grab re-anchors the follower on the hand: a follower that is not on the grab pose (invalid, closing a
// jump, or farther than it may move in one tick of h) restarts there, at rest; one already on it is kept.
// Without this, a grab while the follower still walked from a far sample (a 1 km spike as a track's first
// sample, clamped to the stage) handed the patch a target metres away, and the cloth was dragged.
// Returns whether it restarted.
bool reanchor_safe_target(SafeTarget& state, const Pose& grab, float h, const KinematicLimits& limits);

// Rotates `from` toward `to` by at most max_angle radians (shortest arc).
glm::quat rotate_toward(const glm::quat& from, const glm::quat& to, float max_angle);

}  // namespace weft
