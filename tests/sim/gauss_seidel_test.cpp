#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "sim/force_field.h"
#include "sim/gauss_seidel.h"
#include "sim/mesh_generators.h"
#include "tests/sim/hanging_cloth_fixture.h"

using namespace weft;

using test::hanging_model;
using test::jittered_rest_state;

TEST_CASE("Gauss-Seidel: options are checked and the name parses") {
  const ClothModel model = hanging_model(0.01f);
  CHECK(parse_integrator_kind("gs") == IntegratorKind::GaussSeidel);
  CHECK(std::string(integrator_kind_name(IntegratorKind::GaussSeidel)) == "gs");
  CHECK_THROWS_AS(make_integrator(IntegratorKind::GaussSeidel, model, {.gs_sweeps = 0}), std::invalid_argument);
  CHECK_THROWS_AS(make_integrator(IntegratorKind::GaussSeidel, model, {.gs_chebyshev_rho = 1.f}), std::invalid_argument);
}

TEST_CASE("Gauss-Seidel: many sweeps converge to the CG solution of the same step") {
  const ClothModel model = hanging_model(0.01f);
  const ClothState s0 = jittered_rest_state(model);
  const float h = 1.f / 240;
  ClothState ref = s0;
  make_integrator(IntegratorKind::ConjugateGradient, model, {.cg_tolerance = 1e-7f, .cg_max_iterations = 5000})
      ->step(model, ref, h);
  double err_few = 0, err_many = 0, norm = 0;
  for (int sweeps : {2, 20000}) {
    ClothState s = s0;
    make_integrator(IntegratorKind::GaussSeidel, model, {.gs_sweeps = sweeps, .gs_inertial_guess = false})->step(model, s, h);
    double e = 0;
    norm = 0;
    for (size_t i = 0; i < s.velocity.size(); ++i) {
      e += glm::dot(s.velocity[i] - ref.velocity[i], s.velocity[i] - ref.velocity[i]);
      norm += glm::dot(ref.velocity[i], ref.velocity[i]);
    }
    (sweeps == 2 ? err_few : err_many) = std::sqrt(e / norm);
  }
  CHECK(err_many < 1e-3);
  CHECK(err_many < 0.01 * err_few);  // and it is the sweeps that get there
}

// With 64 sweeps on this 169-vertex cloth; with the runtime's 4 it gains up to 2.6 J and with 16 0.08 J
// (docs/decisions/gauss-seidel-runtime-solver.md): the unresolved smooth modes are not energy-neutral.
TEST_CASE("Gauss-Seidel: without damping a swinging pinned cloth never gains energy (64 sweeps)") {
  const ClothModel model = hanging_model(0.f);
  auto gs = make_integrator(IntegratorKind::GaussSeidel, model, {.gs_sweeps = 64});
  ClothState s = make_rest_state(model);
  const double e0 = compute_energy(model, s.position.data(), s.velocity.data()).total();
  double worst = -1e9;
  for (int k = 0; k < 480; ++k) {
    gs->step(model, s, 1.f / 240);
    worst = std::max(worst, compute_energy(model, s.position.data(), s.velocity.data()).total() - e0);
  }
  // the cloth falls 0.4 m: |gravity energy| ~ 0.024 kg * 9.81 m/s^2 * 0.2 m = 0.05 J
  CHECK(worst <= 1e-6);
  CHECK(std::isfinite(worst));
}
