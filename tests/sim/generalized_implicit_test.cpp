#include <doctest/doctest.h>

#include <cmath>

#include "sim/force_field.h"
#include "sim/generalized_implicit.h"
#include "sim/integrator.h"
#include "sim/mesh_generators.h"
#include "sim/runge_kutta45.h"

using namespace weft;

namespace {

ClothModel hanging_sheet(StretchModel stretch) {
  Material m;
  m.stretch_model = stretch;
  m.weave.weft = StressCurve::linear(200.f);
  m.weave.warp = StressCurve::linear(200.f);
  m.weave.shear = StressCurve::linear(100.f);
  m.stiffness_scale = StiffnessScale::Absolute;
  m.stretch_stiffness = 200.f;
  m.bend_stiffness = 0.5f;
  m.damping = 0.f;
  Mesh mesh = make_grid({.width = 0.2f, .height = 0.2f, .columns = 6, .rows = 6});
  // horizontal, held by two corners of one edge: it swings down
  transform_mesh(mesh, glm::mat4(glm::vec4(1, 0, 0, 0), glm::vec4(0, 0, -1, 0), glm::vec4(0, 1, 0, 0), glm::vec4(0, 0, 0, 1)));
  return build_cloth_model(mesh, m, {42, 48});
}

double energy(const ClothModel& model, const ClothState& s) {
  return compute_energy(model, s.position.data(), s.velocity.data()).total();
}

}  // namespace

TEST_CASE("generalised Euler with alpha 1 is the CG backward Euler step") {
  const ClothModel model = hanging_sheet(StretchModel::Springs);
  ClothState a = make_rest_state(model), b = a;
  auto be = make_integrator(IntegratorKind::GeneralizedEuler, model, {.cg_tolerance = 1e-7f, .cg_max_iterations = 500});
  auto cg = make_integrator(IntegratorKind::ConjugateGradient, model, {.cg_tolerance = 1e-7f, .cg_max_iterations = 500});
  for (int k = 0; k < 20; ++k) {
    be->step(model, a, 1.f / 120.f);
    cg->step(model, b, 1.f / 120.f);
  }
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    CHECK(a.position[i].y == doctest::Approx(b.position[i].y).epsilon(1e-4).scale(1e-3));
    CHECK(a.velocity[i].y == doctest::Approx(b.velocity[i].y).epsilon(1e-3).scale(1e-2));
  }
  CHECK(a.step_count == 20);
}

TEST_CASE("BDF-2 and a smaller alpha lose less energy than backward Euler, kinematic vertices stay put") {
  const ClothModel model = hanging_sheet(StretchModel::WeftWarp);
  auto run = [&](IntegratorKind kind, float alpha) {
    auto integ = make_integrator(kind, model, {.cg_tolerance = 1e-6f, .cg_max_iterations = 500, .alpha = alpha});
    ClothState s = make_rest_state(model);
    const double e0 = energy(model, s);
    for (int k = 0; k < 120; ++k) integ->step(model, s, 1.f / 240.f);
    CHECK(glm::length(s.position[42] - model.rest_position[42]) < 1e-6f);
    return e0 - energy(model, s);
  };
  const double be = run(IntegratorKind::GeneralizedEuler, 1.f);
  const double bdf = run(IntegratorKind::Bdf2, 1.f);
  const double bdf3 = run(IntegratorKind::Bdf2, 1.f / std::sqrt(3.f));
  const double a07 = run(IntegratorKind::GeneralizedEuler, 0.7f);
  CHECK(be > 0.0);
  CHECK(bdf < be);
  CHECK(bdf3 < be);
  CHECK(std::abs(a07) < be);
  CHECK_THROWS_AS(make_integrator(IntegratorKind::Bdf2, model, {.alpha = 0.2f}), std::invalid_argument);
}

TEST_CASE("RK45 (Cash-Karp) sub-steps to its tolerance and keeps the energy of an undamped swing") {
  const ClothModel model = hanging_sheet(StretchModel::WeftWarp);
  auto integ = make_integrator(IntegratorKind::RungeKutta45, model, {.rk_tolerance = 1e-6f});
  ClothState s = make_rest_state(model);
  const double e0 = energy(model, s);
  double lowest = 0;
  for (int k = 0; k < 60; ++k) {
    integ->step(model, s, 1.f / 240.f);
    lowest = std::min(lowest, compute_energy(model, s.position.data(), s.velocity.data()).gravity);
  }
  CHECK(s.time == doctest::Approx(0.25));
  const auto& st = dynamic_cast<RungeKutta45Integrator&>(*integ).adaptive_stats();
  CHECK(st.accepted > 60u);     // sub-steps finer than the tick
  CHECK(st.max_error <= 1.f);
  CHECK(std::abs(energy(model, s) - e0) < 1e-3 * std::abs(lowest));  // energy kept to 0.1 % of the swing
  CHECK(parse_integrator_kind("rk45") == IntegratorKind::RungeKutta45);
  CHECK(std::string(integrator_kind_name(IntegratorKind::Bdf2)) == "bdf2");
}
