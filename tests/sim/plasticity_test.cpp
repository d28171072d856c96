// In-plane plasticity of the weave triangles (sim/plasticity.h, Volino, Courchesne & Thalmann 1995
// sec. 3.4): return mapping, relaxation, forces at the plastically moved rest state, and every solver
// reading the plastic strains. The hinges' bending plasticity is tested in weft_warp_forces_test.cpp.
#include <doctest/doctest.h>

#include <cmath>

#include "../allocation_counter.h"
#include "sim/force_field.h"
#include "sim/integrator.h"
#include "sim/mesh_generators.h"
#include "sim/plasticity.h"
#include "sim/weft_warp_forces.h"
#include "sim/weft_warp_kernels.h"

using namespace weft;

namespace {

constexpr float kYield = 0.02f;

Material plastic_weave(float tau) {
  Material m;
  m.stretch_model = StretchModel::WeftWarp;
  m.weave.weft = StressCurve::from_points({-0.1f, 0.f, 0.1f, 0.5f}, {-100.f, 0.f, 300.f, 6000.f});
  m.weave.warp = StressCurve::linear(800.f);
  m.weave.shear = StressCurve::linear(100.f);
  m.weave.plasticity = {.in_plane = true, .yield_strain = kYield, .shear_yield_strain = 2.f * kYield, .strain_relaxation_time = tau};
  m.damping = 0.f;
  m.gravity = glm::vec3(0.f);
  return m;
}

ClothModel strip(float tau) {
  return build_cloth_model(make_grid({.width = 0.1f, .height = 0.04f, .columns = 5, .rows = 2}), plastic_weave(tau));
}

// Every vertex scaled by (1 + sx, 1 + sy) in the plane: uniform weft and warp strains sx, sy.
void stretch(const ClothModel& model, ClothState& s, float sx, float sy) {
  for (size_t i = 0; i < model.vertex_count(); ++i) s.position[i] = model.rest_position[i] * glm::vec3(1.f + sx, 1.f + sy, 1.f);
}

WeaveStrain strain_of(const ClothModel& model, const ClothState& s, size_t t) {
  const WeftWarpModel& w = model.weft_warp;
  const auto& tri = model.triangle[t];
  return weave_strain({w.ru[t], w.rv[t], w.area[t]}, {s.position[tri[0]], s.position[tri[1]], s.position[tri[2]]}, {});
}

}  // namespace

TEST_CASE("in-plane plasticity: the state carries plastic strains only when the material enables them") {
  CHECK(make_rest_state(strip(1.f)).plastic_strain.size() == strip(1.f).triangle_count());
  Material off = plastic_weave(1.f);
  off.weave.plasticity.in_plane = false;
  CHECK(make_rest_state(build_cloth_model(make_grid({.columns = 2, .rows = 2}), off)).plastic_strain.empty());
  Material bad = plastic_weave(1.f);
  bad.weave.plasticity.yield_strain = 0.f;
  CHECK_THROWS_AS(build_cloth_model(make_grid({.columns = 2, .rows = 2}), bad), std::invalid_argument);
}

TEST_CASE("in-plane plasticity: return mapping keeps |e - e_p| within the yield strain") {
  const ClothModel model = strip(1e9f);
  ClothState s = make_rest_state(model);
  // below yield: nothing moves
  stretch(model, s, 0.5f * kYield, -0.5f * kYield);
  update_plasticity(model, s, 1e-3f);
  for (const auto& p : s.plastic_strain) {
    CHECK(p[0] == 0.f);
    CHECK(p[1] == 0.f);
    CHECK(p[2] == 0.f);
  }
  // past yield along the weft (stretch) and the warp (compression): e_p = e -+ e_yield; shear untouched
  stretch(model, s, 0.05f, -0.03f);
  update_plasticity(model, s, 1e-3f);
  for (size_t t = 0; t < model.triangle_count(); ++t) {
    const WeaveStrain e = strain_of(model, s, t);
    CHECK(e.uu == doctest::Approx(0.05f).epsilon(1e-4));
    CHECK(s.plastic_strain[t][0] == doctest::Approx(e.uu - kYield).epsilon(1e-4));
    CHECK(s.plastic_strain[t][1] == doctest::Approx(e.vv + kYield).epsilon(1e-4));
    CHECK(std::fabs(s.plastic_strain[t][2]) < 1e-6f);
  }
  // back at rest: the weft (e_p = 0.03) yields the other way, to e_p = 0 + e_yield; the warp (e_p = -0.01)
  // is within yield of the rest shape and keeps its plastic strain
  s.position = model.rest_position;
  update_plasticity(model, s, 1e-3f);
  for (const auto& p : s.plastic_strain) {
    CHECK(p[0] == doctest::Approx(kYield).epsilon(1e-4));
    CHECK(p[1] == doctest::Approx(-0.03f + kYield).epsilon(1e-3));
  }
}

TEST_CASE("in-plane plasticity: plastic strain relaxes toward 0 with its time constant, without allocating") {
  const float tau = 0.5f;
  const ClothModel model = strip(tau);
  ClothState s = make_rest_state(model);
  for (auto& p : s.plastic_strain) p = {0.015f, -0.01f, 0.02f};  // within yield of the rest shape
  const uint64_t before = test::allocation_count();
  for (int k = 0; k < 500; ++k) update_plasticity(model, s, 1e-3f);  // 0.5 s = one time constant
  CHECK(test::allocation_count() == before);
  const float decay = std::exp(-1.f);
  for (const auto& p : s.plastic_strain) {
    CHECK(p[0] == doctest::Approx(0.015f * decay).epsilon(1e-3));
    CHECK(p[1] == doctest::Approx(-0.01f * decay).epsilon(1e-3));
    CHECK(p[2] == doctest::Approx(0.02f * decay).epsilon(1e-3));
  }
}

TEST_CASE("in-plane plasticity: forces and energy vanish at the plastically deformed rest state") {
  const ClothModel model = strip(1e9f);
  ClothState s = make_rest_state(model);
  // a stretched, sheared shape, its strains taken as the plastic strains
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    const glm::vec3 p = model.rest_position[i];
    s.position[i] = glm::vec3(1.06f * p.x + 0.2f * p.y, 0.97f * p.y, 0.f);
  }
  for (size_t t = 0; t < model.triangle_count(); ++t) {
    const WeaveStrain e = strain_of(model, s, t);
    s.plastic_strain[t] = {e.uu, e.vv, e.uv};
    REQUIRE(std::fabs(e.uv) > 0.05f);
  }
  ForceBuffers out(model);
  const auto max_force = [&] {
    float f = 0.f;
    for (const auto& v : out.force) f = std::max(f, glm::length(v));
    return f;
  };
  evaluate_forces(model, s.position.data(), s.velocity.data(), out, {.jacobian = true, .plastic_strain = plastic_strains(s)});
  CHECK(max_force() < 1e-4f);
  CHECK(weft_warp_energy(model, s.position.data(), nullptr, plastic_strains(s)) == doctest::Approx(0.0).epsilon(1e-12));
  evaluate_forces(model, s.position.data(), s.velocity.data(), out, {.jacobian = true});  // elastic: pulled back
  CHECK(max_force() > 0.1f);
  CHECK(weft_warp_energy(model, s.position.data()) > 1e-5);
}

TEST_CASE("in-plane plasticity: every solver holds a strip at its plastic rest state") {
  const ClothModel model = strip(1e9f);
  ClothState stretched = make_rest_state(model);
  stretch(model, stretched, 0.05f, 0.f);
  update_plasticity(model, stretched, 1e-6f);
  // e_p = 0.03: the elastic rest is 3 % longer than the model's; with strain 5 % the strip contracts to it
  const float rest_end = 0.1f * 1.03f;
  for (IntegratorKind kind : {IntegratorKind::Multigrid, IntegratorKind::ConjugateGradient, IntegratorKind::ApproximateImplicit,
                              IntegratorKind::GaussSeidel, IntegratorKind::GeneralizedEuler, IntegratorKind::Bdf2,
                              IntegratorKind::RungeKutta45, IntegratorKind::SymplecticEuler, IntegratorKind::RungeKutta4}) {
    CAPTURE(integrator_kind_name(kind));
    ClothState s = stretched;
    auto integrator = make_integrator(kind, model, {.gs_sweeps = 40});
    const bool explicit_step = kind == IntegratorKind::SymplecticEuler || kind == IntegratorKind::RungeKutta4;
    const float h = explicit_step ? 2e-5f : 1.f / 240.f;
    const int steps = explicit_step ? 25000 : 120;  // 0.5 s
    // viscous damping so the strip settles; it keeps its plastic strain (below yield after the first step)
    for (int k = 0; k < steps; ++k) {
      integrator->step(model, s, h);
      for (auto& v : s.velocity) v *= explicit_step ? 0.9995f : 0.9f;
    }
    float end = 0.f, width = 0.f;
    for (size_t i = 0; i < model.vertex_count(); ++i) {
      end = std::max(end, s.position[i].x);
      width = std::max(width, s.position[i].y);
    }
    float left = 1.f;
    for (const auto& p : s.position) left = std::min(left, p.x);
    CHECK(end - left == doctest::Approx(rest_end).epsilon(2e-3));
    CHECK(width == doctest::Approx(0.04f).epsilon(2e-3));
  }
}
