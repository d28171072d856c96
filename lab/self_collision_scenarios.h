#pragma once
// The self-collision experiments of issue 8 (and issue 15's crumple), shared by `weft validate self-collision` and the
// tests (which run them reduced). Each returns checks {check, value, bound, pass}.
// They run the runtime's path: a World with self-collision switched on, the floor a plane collider,
// the hands World::grab + submit_pose + release.
#include <string>
#include <array>
#include <vector>

#include "sim/integrator.h"
#include "sim/world.h"

namespace weft::lab {

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
  // CG by default; `weft validate self-collision --solver approx` runs the runtime's approximate solver
  // (k = 3), which passes them too since the corrections are bounded (docs/self_collision.md).
  IntegratorKind integrator = IntegratorKind::Multigrid;  // the runtime's
  int threads = 1;          // SolverOptions::mg_threads (2: the 16k meshes' fine level split in two regions)
  IntegratorFactory make_integrator{};  // set: the step's integrator (the GPU step, --device)
};

// A vertical sheet, tilted, dropped on the floor: it buckles and folds over itself.
std::vector<ScenarioCheck> run_drop_fold(const ScenarioOptions& options);
// Two stacked horizontal sheets: the upper one thrown down onto the lower one and pressed.
std::vector<ScenarioCheck> run_stacked_press(const ScenarioOptions& options);
// A sheet on the floor folded in half by two hands (grabs at two corners), then released.
std::vector<ScenarioCheck> run_hand_fold(const ScenarioOptions& options);
// Issue 15: a 16k-vertex sheet bunched up by two hands for 5 s then let go; no new intersections at the end.
std::vector<ScenarioCheck> run_hand_crumple(const ScenarioOptions& options);

// The two-hand fold's motion (run_hand_fold, and `weft bench --suite self-collision --case fold`): after fold
// step `step` of `steps` (1..steps) the hands' offset from where they grabbed, on a half-ellipse of the given
// radius (along +x) and lift (up) that ends `land` above its start.
glm::vec3 fold_offset(int step, int steps, float radius, float lift, float land);
// A tracked hand's sample at time t, position p (identity orientation).
PoseSample hand_sample(Hand hand, double t, const glm::vec3& p);
// Both hands grab at start[k] with the given radius and report their first pose there; returns the
// number of vertices held.
size_t grab_with_both_hands(World& world, const std::array<glm::vec3, 2>& start, float radius);

}  // namespace weft::lab
