#pragma once
// The colliders a hand carries (Volino & Thalmann 1997's closing section: the hands themselves touch the
// garment): a palm capsule and a forearm capsule fixed in the hand's grip frame, following the hand's
// device by the elastic law (sim/collider.h Collider::follows, grip). They push the cloth with Coulomb
// friction whether or not the hand squeezes; what the hand holds is left to its grasp.
//
// The grip frame is OpenXR's grip pose: origin in the closed fist, -z along the fist's axis (forward out of
// the hand), +y up. The palm lies along that axis; the forearm runs back from the wrist along +z.
#include <array>

#include "sim/collider.h"
#include "sim/device.h"
#include "sim/pose.h"

namespace weft {

struct HandColliderSizes {
  bool enabled = true;           // on unless the scene says "enabled": false
  float palm_radius = 0.04f;     // m
  float palm_half_length = 0.03f;  // m, along the fist's axis
  float forearm_radius = 0.045f;   // m
  float forearm_length = 0.25f;    // m, wrist to elbow
  float wrist_offset = 0.08f;      // m, from the grip's origin back to the wrist
  float mu_static = 0.5f;
  float mu_kinetic = 0.4f;
};

// The palm (index 0) and forearm (index 1) of `hand`, placed for a hand at `start`, both body colliders
// following the hand's device, parked: the hand is not seen yet, and the first tick puts them on it or below
// the stage (sim/driven_collider.h).
std::array<Collider, 2> make_hand_colliders(Hand hand, const HandColliderSizes& sizes, const Pose& start);

}  // namespace weft
