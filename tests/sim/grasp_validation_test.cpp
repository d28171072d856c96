// Each acceptance check of `weft validate grasp` as a unit test, on the runtime's solver (approximate
// implicit with the translation correction, what the command uses by default) and on CG.
#include <doctest/doctest.h>

#include "sim/grasp_validation.h"

using namespace weft;

namespace {
WorldConfig runtime() { return WorldConfig{}; }
void require_pass(const GraspCheck& c) {
  INFO(c.check << ": value " << c.value << ", bound " << c.bound << " (" << c.detail << ")");
  CHECK(c.pass);
}
}  // namespace

TEST_CASE("grasp check: elastic follows exp(-t/tau) within 2 %") { require_pass(check_elastic_decay(runtime())); }
TEST_CASE("grasp check: a 1 km target jump moves nothing faster than the cap") { require_pass(check_teleport_speed(runtime())); }
TEST_CASE("grasp check: 2 s after a 1 km jump the cloth is back within 1 cm") { require_pass(check_teleport_recovery(runtime())); }
TEST_CASE("grasp check: strain limited to limit + 1 % between two hands") {
  const GraspCheck c = check_strain_limit(runtime());
  require_pass(c);
  CHECK(c.value > 0.09);  // the scene really is stretched to the limit
}
TEST_CASE("grasp check: no vertex below the plane minus the thickness") { require_pass(check_drop_on_plane(runtime())); }
TEST_CASE("grasp check: 20 degree slope holds with mu = 0.5") { require_pass(check_friction_static(runtime())); }
TEST_CASE("grasp check: 20 degree slope slides with mu = 0.1") { require_pass(check_friction_sliding(runtime())); }
TEST_CASE("grasp check: release keeps the linear momentum") { require_pass(check_release_momentum(runtime())); }
TEST_CASE("grasp check: invalid poses counted, state unchanged") { require_pass(check_invalid_poses(runtime())); }
TEST_CASE("grasp check: two hands on overlapping patches") { require_pass(check_overlapping_hands(runtime())); }

TEST_CASE("every grasp check also passes on the converged CG solver") {
  WorldConfig cg;
  cg.integrator = IntegratorKind::ConjugateGradient;
  for (const GraspCheck& c : run_grasp_validation(cg)) require_pass(c);
}
