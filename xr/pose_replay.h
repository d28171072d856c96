#pragma once
// A built-in two-hand pose stream for runtimes whose controllers do not move (Monado's simulated
// headset, a controller lying on a desk): each hand reaches for a cloth corner, squeezes, lifts
// and lets go, on a fixed period, so the grab path runs end to end. Deterministic in time.
#include "sim/pose.h"
#include "xr/hand_grabber.h"

namespace weft::xr {

struct ReplayConfig {
  glm::vec3 left_corner{0.f};   // m, world: the cloth point the left hand reaches for
  glm::vec3 right_corner{0.f};  // m, world
  double period_s = 4.0;        // one reach-squeeze-lift-release cycle
  float approach_m = 0.15f;     // starts this far above the corner
  float lift_m = 0.25f;         // lifts this far above the corner while holding
};

// The hand's sample at time t (s): valid flags, squeeze 1 while holding.
HandSample replay_hand(const ReplayConfig& config, Hand hand, double t);
// Whether the replayed hands are closing on or holding the cloth at time t (from the squeeze until
// the release ends): their corners must stay put then.
bool replay_holding(const ReplayConfig& config, double t);
// Moves the corner a hand reaches for to where the cloth's corner is now, unless the hand is holding
// at t (a corner that drooped over a table edge or slid is still where the hand closes; a held one
// would pull the hand along).
void track_replay_corner(ReplayConfig& config, Hand hand, const glm::vec3& corner, double t);

// Decides per hand whether the runtime gives motion: the replay drives a hand until the runtime's
// grip has moved more than 5 mm from where it first appeared, or its squeeze was pressed.
class MotionWatch {
 public:
  void observe(Hand hand, const HandSample& runtime_sample);
  bool runtime_moves(Hand hand) const { return moved_[size_t(hand)]; }

 private:
  bool seen_[2] = {false, false};
  bool moved_[2] = {false, false};
  glm::vec3 first_[2] = {glm::vec3(0.f), glm::vec3(0.f)};
};

}  // namespace weft::xr
