#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "sim/force_field.h"
#include "sim/integrator.h"
#include "sim/mesh_generators.h"
#include "sim/plasticity.h"
#include "sim/weft_warp_forces.h"

using namespace weft;

namespace {

Material weave_material() {
  Material m;
  m.stretch_model = StretchModel::WeftWarp;
  m.weave.weft = StressCurve::from_points({-0.1f, 0.f, 0.1f, 0.5f}, {-10.f, 0.f, 30.f, 600.f});
  m.weave.warp = StressCurve::linear(80.f);
  m.weave.shear = StressCurve::linear(10.f);
  m.weave.weft_bending = 2e-4f;
  m.weave.warp_bending = 5e-4f;
  m.damping = 0.f;
  m.gravity = glm::vec3(0.f);
  return m;
}

}  // namespace

TEST_CASE("weft/warp model: forces are minus the gradient of its energy") {
  const ClothModel model = build_cloth_model(make_irregular({.width = 0.2f, .height = 0.15f, .columns = 5, .rows = 4, .seed = 2}),
                                             weave_material());
  REQUIRE(model.weft_warp.active());
  CHECK(model.weft_warp.hinge_count() == model.bend_count);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> U(-1.f, 1.f);
  std::vector<glm::vec3> x = model.rest_position, v(model.vertex_count(), glm::vec3(0.f));
  for (auto& p : x) p = glm::vec3(1.1f * p.x, 0.95f * p.y, 0.f) + 0.004f * glm::vec3(U(rng), U(rng), U(rng));
  ForceBuffers out(model);
  evaluate_forces(model, x.data(), v.data(), out, {.jacobian = false});
  const double d = 1e-5;
  for (size_t i = 0; i < model.vertex_count(); i += 3)
    for (int c = 0; c < 3; ++c) {
      auto xp = x, xm = x;
      xp[i][c] += float(d);
      xm[i][c] -= float(d);
      const double grad = (weft_warp_energy(model, xp.data()) - weft_warp_energy(model, xm.data())) / (2 * d);
      CHECK(out.force[i][c] == doctest::Approx(-grad).epsilon(3e-2).scale(3e-2));
    }
}

TEST_CASE("weft/warp model: Jacobian blocks sum to the diagonal, and are the ones evaluate_forces stores") {
  const ClothModel model = build_cloth_model(make_grid({.width = 0.1f, .height = 0.1f, .columns = 3, .rows = 3}), weave_material());
  std::vector<glm::vec3> x = model.rest_position, v(model.vertex_count(), glm::vec3(0.f));
  for (auto& p : x) p.x *= 1.2f;  // 20 % along the weft: a uniform stress
  ForceBuffers out(model);
  evaluate_forces(model, x.data(), v.data(), out, {.jacobian = true});
  std::vector<Sym3> sum(model.vertex_count());
  for (size_t l = 0; l < model.link_count_total(); ++l) {
    sum[model.link[l][0]] += out.link_jacobian.get(l);
    sum[model.link[l][1]] += out.link_jacobian.get(l);
  }
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    CHECK(sum[i].xx == doctest::Approx(out.jacobian_sum[i].xx).epsilon(1e-4).scale(1));
    CHECK(sum[i].yy == doctest::Approx(out.jacobian_sum[i].yy).epsilon(1e-4).scale(1));
  }
  // Uniform stretch: interior vertices carry no net force; the weft edge vertices carry sigma x width.
  float right = 0.f;
  for (size_t i = 0; i < model.vertex_count(); ++i)
    if (model.rest_position[i].x > 0.099f) right += out.force[i].x;
  CHECK(-right == doctest::Approx(model.material.weave.weft(0.2f).stress * 0.1f).epsilon(1e-4));
  CHECK(glm::length(out.force[5]) < 1e-4f);
}

TEST_CASE("weft/warp model: a hanging sheet settles with the CG solver") {
  Material m = weave_material();
  m.gravity = glm::vec3(0, -9.81f, 0);
  m.damping = 0.01f;
  m.weave.weft_viscosity = 0.05f;
  m.weave.warp_viscosity = 0.05f;
  Mesh mesh = make_grid({.width = 0.3f, .height = 0.3f, .columns = 8, .rows = 8});
  transform_mesh(mesh, glm::mat4(glm::vec4(1, 0, 0, 0), glm::vec4(0, 0, -1, 0), glm::vec4(0, 1, 0, 0), glm::vec4(0, 0, 0, 1)));
  const ClothModel model = build_cloth_model(mesh, m, {0, 8});
  ClothState s = make_rest_state(model);
  auto integrator = make_integrator(IntegratorKind::ConjugateGradient, model, {.cg_tolerance = 1e-4f});
  for (int k = 0; k < 600; ++k) integrator->step(model, s, 1.f / 120.f);
  float speed = 0.f;
  for (const auto& v : s.velocity) speed = std::max(speed, glm::length(v));
  CHECK(std::isfinite(speed));
  CHECK(speed < 0.05f);
  CHECK(s.position[80].y < -0.25f);  // the far corner hangs down
}

TEST_CASE("plasticity: a hinge bent past yield keeps a crease, then relaxes") {
  Material m = weave_material();
  m.weave.plasticity = {.enabled = true, .yield_curvature = 10.f, .relaxation_time = 1.f};
  const ClothModel model = build_cloth_model(make_grid({.width = 0.02f, .height = 0.01f, .columns = 2, .rows = 1}), m);
  ClothState s = make_rest_state(model);
  REQUIRE(s.hinge_rest_angle.size() == model.weft_warp.hinge_count());
  // fold the right column up by 1 rad about the middle line x = 0.01 (a crease on the middle edge)
  for (size_t i = 0; i < model.vertex_count(); ++i)
    if (model.rest_position[i].x > 0.015f) s.position[i] = glm::vec3(0.01f + 0.01f * std::cos(1.f), s.position[i].y, 0.01f * std::sin(1.f));
  update_plasticity(model, s, 1e-3f);
  size_t middle = 0;
  for (size_t e = 0; e < model.weft_warp.hinge_count(); ++e)
    if (std::fabs(model.rest_position[model.weft_warp.hinge[e][0]].x - 0.01f) < 1e-6f &&
        std::fabs(model.rest_position[model.weft_warp.hinge[e][1]].x - 0.01f) < 1e-6f)
      middle = e;
  const float yield = 10.f / model.weft_warp.curvature_per_angle[middle];  // = 10 dx / 3
  CHECK(std::fabs(s.hinge_rest_angle[middle]) == doctest::Approx(1.f - yield).epsilon(1e-3));
  // Pressed back flat, it yields the other way (to within the yield angle of flat), then relaxes from
  // there with the time constant: after one relaxation time, yield / e.
  s.position = model.rest_position;
  update_plasticity(model, s, 1e-9f);
  CHECK(std::fabs(s.hinge_rest_angle[middle]) == doctest::Approx(yield).epsilon(1e-3));
  for (int k = 0; k < 1000; ++k) update_plasticity(model, s, 1e-3f);
  CHECK(std::fabs(s.hinge_rest_angle[middle]) == doctest::Approx(yield / std::exp(1.f)).epsilon(1e-3));
}
