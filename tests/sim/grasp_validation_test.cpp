// Each acceptance check of `weft validate grasp` as a unit test, on the converged solver the command
// uses by default.
#include <doctest/doctest.h>

#include "sim/grasp_validation.h"

using namespace weft;

namespace {
WorldConfig cg() {
  WorldConfig c;
  c.integrator = IntegratorKind::ConjugateGradient;
  return c;
}
void require_pass(const GraspCheck& c) {
  INFO(c.check << ": value " << c.value << ", bound " << c.bound << " (" << c.detail << ")");
  CHECK(c.pass);
}
}  // namespace

TEST_CASE("grasp check: elastic follows exp(-t/tau) within 2 %") { require_pass(check_elastic_decay(cg())); }
TEST_CASE("grasp check: a 1 km target jump moves nothing faster than the cap") { require_pass(check_teleport_speed(cg())); }
TEST_CASE("grasp check: 2 s after a 1 km jump the cloth is back within 1 cm") { require_pass(check_teleport_recovery(cg())); }
TEST_CASE("grasp check: strain limited to limit + 1 % between two hands") {
  const GraspCheck c = check_strain_limit(cg());
  require_pass(c);
  CHECK(c.value > 0.09);  // the scene really is stretched to the limit
}
TEST_CASE("grasp check: no vertex below the plane minus the thickness") { require_pass(check_drop_on_plane(cg())); }
TEST_CASE("grasp check: 20 degree slope holds with mu = 0.5") { require_pass(check_friction_static(cg())); }
TEST_CASE("grasp check: 20 degree slope slides with mu = 0.1") { require_pass(check_friction_sliding(cg())); }
TEST_CASE("grasp check: release keeps the linear momentum") { require_pass(check_release_momentum(cg())); }
TEST_CASE("grasp check: invalid poses counted, state unchanged") { require_pass(check_invalid_poses(cg())); }
TEST_CASE("grasp check: two hands on overlapping patches") { require_pass(check_overlapping_hands(cg())); }

TEST_CASE("grasp checks that do not depend on the solver's accuracy also pass on the approximate solver") {
  const WorldConfig approx;  // the runtime default
  require_pass(check_elastic_decay(approx));
  require_pass(check_teleport_speed(approx));
  require_pass(check_teleport_recovery(approx));
  require_pass(check_drop_on_plane(approx));
  require_pass(check_invalid_poses(approx));
  require_pass(check_overlapping_hands(approx));
}
