#pragma once
// The acceptance scenarios of the interaction physics (issue 3), each a small scene built inline and
// measured against its bound. `weft validate grasp` prints them; tests/sim/grasp_validation_test.cpp
// runs each as a unit test.
#include <limits>
#include <string>
#include <vector>

#include "sim/world.h"

namespace weft {

struct GraspCheck {
  std::string check;   // name
  double value = 0;    // what was measured
  double bound = 0;    // the bound it is held to
  bool pass = false;
  std::string detail;  // how value and bound relate, in words
  // Regression guard, where the specification bound is far from what the solvers achieve: a few times
  // the measured value, on the same side as the bound, and also required by pass. NaN: none.
  double guard = std::numeric_limits<double>::quiet_NaN();
};

GraspCheck check_elastic_decay(const WorldConfig& base = {});         // relative error of |x - target| against exp(-t/tau), <= 2 %
GraspCheck check_teleport_speed(const WorldConfig& base = {});        // max vertex speed while a hand target jumps 1 km, <= cap
GraspCheck check_teleport_recovery(const WorldConfig& base = {});     // max distance to the no-jump run 2 s later, <= 1 cm
GraspCheck check_strain_limit(const WorldConfig& base = {});          // max edge strain stretched between two hands, <= limit + 1 %
GraspCheck check_drop_on_plane(const WorldConfig& base = {});         // lowest vertex height over a fall onto a plane, >= -thickness (guard: thickness - 1 mm)
GraspCheck check_friction_static(const WorldConfig& base = {});       // drift on a 20 degree slope with mu = 0.5, ~0
GraspCheck check_friction_sliding(const WorldConfig& base = {});      // slide on a 20 degree slope with mu = 0.1 against g (sin - mu cos)
GraspCheck check_release_momentum(const WorldConfig& base = {});      // relative change of linear momentum across a release, <= 2 % (guard: 3e-5)
GraspCheck check_invalid_poses(const WorldConfig& base = {});         // invalid samples counted and without effect on the state
GraspCheck check_overlapping_hands(const WorldConfig& base = {});     // co-held vertices on the average target (1 mm, guard 0.5 um); grab order irrelevant

// All checks, each on a World built with `base` (solver, tick, interaction settings) unless the check
// sets a field itself.
std::vector<GraspCheck> run_grasp_validation(const WorldConfig& base = {});

}  // namespace weft
