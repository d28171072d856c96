#pragma once
// The three self-collision experiments of issue 8, shared by `weft validate self-collision` and the
// tests (which run them reduced). Each returns checks {check, value, bound, pass}.
//
// Until the grasp branch's colliders and grasps land in World, the floor is a local position and
// velocity clamp (floor_clamp below) and the hands drive kinematic vertices directly.
#include <string>
#include <vector>

#include "sim/cloth_state.h"

namespace weft::app {

struct ScenarioCheck {
  std::string check;  // name, "<scenario>.<quantity>"
  double value = 0;
  double bound = 0;
  bool at_least = false;  // pass when value >= bound (else value <= bound)
  bool pass() const { return at_least ? value >= bound : value <= bound; }
};

struct ScenarioOptions {
  bool reduced = false;     // coarse meshes and short runs (tests)
  float thickness = 0.005f; // self-collision thickness, m
  bool self_collision = true;
};

// A vertical sheet, tilted, dropped on the floor: it buckles and folds over itself.
std::vector<ScenarioCheck> run_drop_fold(const ScenarioOptions& options);
// Two stacked horizontal sheets: the upper one thrown down onto the lower one and pressed.
std::vector<ScenarioCheck> run_stacked_press(const ScenarioOptions& options);
// A sheet on the floor folded in half by two hands (kinematic corners), then released.
std::vector<ScenarioCheck> run_hand_fold(const ScenarioOptions& options);

// Temporary floor at height y: no vertex below it, no velocity into it, Coulomb friction on the
// tangential velocity. Kinematic vertices are left alone.
void floor_clamp(ClothState& state, float y, float friction);

}  // namespace weft::app
