#pragma once
// How a collider fixed in its device's frame (Collider::grip: a hand's palm and forearm, a tracked body part) moves
// each tick (one that follows only its device's position keeps the plain elastic law: sim/stage_move_solids.cpp): toward
// the device's pose by the elastics' law (sim/elastic_constraint.h), or out of the way. It stands aside, parked
// far below the stage, while its device is not tracked (never seen yet, or no sample for twice the extrapolation
// horizon: the window's mouse hand between drags, a controller that lost tracking) and
// while the device jumps: a pose moving faster than the elastics' cap, a jump the safety layer is closing
// (sim/kinematic_safety.h), or a collider left farther than kStandAsideLag behind. Chased at the cap speed, a
// noise spike swept the palm and forearm through the cloth; an unseen hand's colliders stood at the scene's hand
// start, where falling cloth landed on them. It also stands aside while its device holds a patch (or lets one
// slide out): the hand is in the cloth it grabbed, and a forearm lying in a sheet grabbed flat pushed its
// neighbours out at 5 m/s (the bounds matrix's two-hand cells: 6-15 speed clamps). Once the device moves
// plausibly and holds nothing it is put on the device without sweeping (previous pose = pose): before the device
// was first seen and after it held (Collider::wait_clear), only where it lands clear of the cloth.
#include <glm/glm.hpp>

#include "sim/collider.h"
#include "sim/elastic_constraint.h"
#include "sim/pose.h"

namespace weft {

inline constexpr glm::vec3 kParkedPosition{0.f, -1000.f, 0.f};  // m, far below any stage (StageBounds: y >= -5)
inline constexpr float kStandAsideLag = 0.05f;  // m: twice the cap speed's step at 240 Hz; a hand's normal lag is < 1 cm

// What the collider's device does this tick, in the collider's own place (device pose * Collider::grip).
struct DeviceMotion {
  bool known = false;    // the device is tracked now (a sample within twice the extrapolation horizon)
  Pose now, next;        // the collider's target at the tick's start and at its end
  bool jumping = false;  // the device's safety layer is closing a jump (SafeTarget::catching_up)
  bool holds = false;    // the device holds a patch or lets one slide out of its grip
};

// Whether collider c placed at `at` keeps every one of the n points x farther than `margin` from its surface.
bool lands_clear(const Collider& c, const Pose& at, const glm::vec3* x, size_t n, float margin);

// How far apart two placements of collider c are, m: the centre's distance plus the turn times the collider's
// reach (a forearm's far end swings with its turn).
float placement_distance(const Collider& c, const Pose& a, const Pose& b);

// Moves c over one tick of h (sets pose, previous_pose and the velocities): parked, put on the device, or
// pulled toward it with the linear and angular speed of any of its points capped at elastic.max_speed. A parked
// collider that waits clear comes back only where it lands clear of the cloth (the n positions x, by `margin`).
void drive_collider(Collider& c, const DeviceMotion& device, const glm::vec3* x, size_t n, float margin, float h,
                    const ElasticParams& elastic);

}  // namespace weft
