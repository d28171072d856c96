#include <doctest/doctest.h>

#include <cmath>

#include "sim/force_field.h"
#include "sim/integrator.h"
#include "sim/mesh_generators.h"

using namespace weft;

namespace {
Material stiff_cotton() {
  Material m;
  m.areal_density = 0.15f;
  m.stretch_stiffness = 500.f;  // k = 500 / l0: about 1e4 N/m on this grid
  m.bend_stiffness = 0.5f;
  m.damping = 0.002f;
  return m;
}

// A horizontal 0.5 m grid (x-z plane), 11 x 11 vertices; vertices 110 and 120 are the corners at z = 0.5.
ClothModel grid_model(const Material& m, std::vector<uint32_t> pins = {}) {
  Mesh mesh = make_grid({.width = 0.5f, .height = 0.5f, .columns = 10, .rows = 10});
  for (auto& p : mesh.positions) p = glm::vec3(p.x, 0.f, p.y);
  return build_cloth_model(mesh, m, pins);
}

glm::vec3 mean_velocity(const ClothModel& model, const ClothState& s) {
  glm::vec3 p(0.f);
  for (size_t i = 0; i < s.velocity.size(); ++i) p += model.mass[i] * s.velocity[i];
  return p / model.total_mass();
}
}  // namespace

TEST_CASE("even Jacobi iteration counts are refused unless allowed") {
  const ClothModel model = grid_model(stiff_cotton());
  CHECK_THROWS_AS(make_integrator(IntegratorKind::ApproximateImplicit, model, {.iterations = 2}), std::invalid_argument);
  CHECK_THROWS_AS(make_integrator(IntegratorKind::ApproximateImplicit, model, {.iterations = 0}), std::invalid_argument);
  CHECK_NOTHROW(make_integrator(IntegratorKind::ApproximateImplicit, model,
                                {.iterations = 2, .allow_even_iterations = true}));
  CHECK(parse_integrator_kind("rk4") == IntegratorKind::RungeKutta4);
  CHECK_THROWS_AS(parse_integrator_kind("verlet"), std::invalid_argument);
}

TEST_CASE("a free cloth at rest falls at g with every integrator (translation correction for the approximate one)") {
  const ClothModel model = grid_model(stiff_cotton());
  const float h = 1.f / 240.f;
  struct Case { IntegratorKind kind; SolverOptions options; float h; float tolerance; };
  // Explicit steps small enough for these stiff links (rounding alone excites them otherwise).
  const Case cases[] = {{IntegratorKind::SymplecticEuler, {}, 1e-4f, 1e-4f},
                        {IntegratorKind::RungeKutta4, {}, 1e-4f, 1e-4f},
                        {IntegratorKind::ConjugateGradient, {.cg_tolerance = 1e-6f}, h, 1e-3f},
                        {IntegratorKind::ApproximateImplicit, {.translation_correction = true}, h, 1e-3f}};
  for (const Case& c : cases) {
    auto integrator = make_integrator(c.kind, model, c.options);
    ClothState s = make_rest_state(model);
    for (int i = 0; i < 24; ++i) integrator->step(model, s, c.h);
    const glm::vec3 v = mean_velocity(model, s);
    INFO(integrator->name());
    CHECK(v.y == doctest::Approx(-9.81f * 24 * c.h).epsilon(c.tolerance));
  }
  // Plain Kang & Cho k = 1 falls slower than g on stiff links: what the correction is for.
  auto plain = make_integrator(IntegratorKind::ApproximateImplicit, model, {});
  ClothState s = make_rest_state(model);
  for (int i = 0; i < 24; ++i) plain->step(model, s, h);
  CHECK(-mean_velocity(model, s).y < 0.99f * 9.81f * 24 * h);
}

TEST_CASE("pinned vertices stay put and a hanging cloth stays finite with each implicit solver") {
  const ClothModel model = grid_model(stiff_cotton(), {110, 120});
  for (IntegratorKind kind : {IntegratorKind::ApproximateImplicit, IntegratorKind::ConjugateGradient}) {
    auto integrator = make_integrator(kind, model, {.iterations = 3});
    ClothState s = make_rest_state(model);
    for (int i = 0; i < 240; ++i) integrator->step(model, s, 1.f / 60.f);
    CHECK(s.position[110] == model.rest_position[110]);
    CHECK(s.position[120] == model.rest_position[120]);
    float lowest = 0;
    for (const auto& p : s.position) {
      REQUIRE(std::isfinite(p.x + p.y + p.z));
      lowest = std::min(lowest, p.y);
    }
    CHECK(lowest < -0.3f);  // it has swung down
    CHECK(lowest > -1.2f);  // without stretching like rubber
  }
}

TEST_CASE("kinematic vertices end the step at their imposed velocity") {
  const ClothModel model = grid_model(stiff_cotton());
  for (IntegratorKind kind : {IntegratorKind::ApproximateImplicit, IntegratorKind::ConjugateGradient,
                              IntegratorKind::SymplecticEuler, IntegratorKind::RungeKutta4}) {
    auto integrator = make_integrator(kind, model, {});
    ClothState s = make_rest_state(model);
    s.kinematic[0] = 1;
    s.kinematic_velocity[0] = glm::vec3(0.1f, 0.2f, -0.3f);
    integrator->step(model, s, 1.f / 1000.f);
    CHECK(glm::length(s.velocity[0] - glm::vec3(0.1f, 0.2f, -0.3f)) < 1e-5f);
    CHECK(glm::length(s.position[0] - (model.rest_position[0] + 1e-3f * glm::vec3(0.1f, 0.2f, -0.3f))) < 1e-6f);
  }
}

TEST_CASE("the approximate solver converges to the CG solution as k grows") {
  const ClothModel model = grid_model(stiff_cotton(), {110, 120});
  ClothState start = make_rest_state(model);
  for (size_t i = 0; i < start.position.size(); ++i)
    start.velocity[i] = glm::vec3(0.1f * std::sin(float(i)), 0.f, 0.1f * std::cos(0.7f * float(i)));
  auto run = [&](IntegratorKind kind, int k) {
    auto integrator = make_integrator(kind, model, {.iterations = k, .cg_tolerance = 1e-7f, .cg_max_iterations = 2000});
    ClothState s = start;
    integrator->step(model, s, 1.f / 240.f);
    return s.velocity;
  };
  const auto exact = run(IntegratorKind::ConjugateGradient, 1);
  double previous = INFINITY;
  for (int k : {1, 5, 25, 125}) {
    const auto approx = run(IntegratorKind::ApproximateImplicit, k);
    double err = 0;
    for (size_t i = 0; i < exact.size(); ++i) err += glm::dot(approx[i] - exact[i], approx[i] - exact[i]);
    CHECK(err < previous);
    previous = err;
  }
}

TEST_CASE("Volino triangles with alpha 0 act as area-weighted edge springs") {
  const Mesh mesh = make_irregular({.columns = 4, .rows = 4, .seed = 4});
  Material m;
  m.stretch_model = StretchModel::Volino;
  m.alpha = 0.f;
  m.young_modulus = 300.f;
  m.bend_stiffness = 0.f;
  m.damping = 0.f;
  m.gravity = glm::vec3(0.f);
  const ClothModel model = build_cloth_model(mesh, m);
  std::vector<glm::vec3> x = model.rest_position, v(x.size(), glm::vec3(0.f));
  for (auto& p : x) p *= glm::vec3(1.1f, 0.95f, 1.f);
  ForceBuffers volino(model);
  evaluate_forces(model, x.data(), v.data(), volino, {.jacobian = false});
  // The same links as plain springs with k = sum over adjacent triangles of Y A / L^2 (model.stiffness).
  std::vector<glm::vec3> expected(x.size(), glm::vec3(0.f));
  for (size_t l = 0; l < model.edge_count; ++l) {
    const auto [i, j] = model.link[l];
    const glm::vec3 d = x[j] - x[i];
    const float len = glm::length(d);
    const glm::vec3 f = model.stiffness[l] * (len - model.rest_length[l]) * d / len;
    expected[i] += f;
    expected[j] -= f;
  }
  for (size_t i = 0; i < x.size(); ++i) CHECK(glm::length(volino.force[i] - expected[i]) < 1e-3f);
}

TEST_CASE("internal forces conserve momentum and the assembled Jacobian matches finite differences") {
  Material m = stiff_cotton();
  m.gravity = glm::vec3(0.f);
  m.damping = 0.f;
  const ClothModel model = grid_model(m);
  std::vector<glm::vec3> x = model.rest_position, v(x.size(), glm::vec3(0.f));
  for (size_t i = 0; i < x.size(); ++i) x[i] = x[i] * 1.05f + glm::vec3(0.f, 0.f, 0.002f * std::sin(3.f * float(i)));
  ForceBuffers f(model);
  evaluate_forces(model, x.data(), v.data(), f, {.jacobian = true});
  glm::dvec3 total(0.0);
  for (const auto& fi : f.force) total += glm::dvec3(fi);
  CHECK(glm::length(total) < 1e-3);
  // Column block (i, j) of the Jacobian for one link: move x_j, watch f_i.
  const size_t l = 7;
  const auto [i, j] = model.link[l];
  const Sym3 J = f.link_jacobian.get(l);
  const float eps = 1e-4f;
  for (int b = 0; b < 3; ++b) {
    auto moved = x;
    moved[j][b] += eps;
    ForceBuffers fp(model);
    evaluate_forces(model, moved.data(), v.data(), fp, {.jacobian = false});
    moved[j][b] -= 2 * eps;
    ForceBuffers fm(model);
    evaluate_forces(model, moved.data(), v.data(), fm, {.jacobian = false});
    const glm::vec3 col = (fp.force[i] - fm.force[i]) / (2 * eps);
    const glm::vec3 predicted = J * glm::vec3(b == 0, b == 1, b == 2);
    CHECK(glm::length(col - predicted) < 0.02f * model.stiffness[l]);
  }
}

TEST_CASE("one approximate implicit step equals Kang & Cho Eq. 17-20 written out block by block") {
  // A deformed, moving irregular cloth with a pinned vertex; link count not a multiple of 8 (SIMD and tail).
  Material m = stiff_cotton();
  m.damping = 0.05f;
  m.drag = 0.5f;
  const Mesh mesh = make_irregular({.width = 0.5f, .height = 0.4f, .columns = 9, .rows = 7, .seed = 5});
  const ClothModel model = build_cloth_model(mesh, m, {3});
  REQUIRE(model.link_count_total() % 8 != 0);
  ClothState start = make_rest_state(model);
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    const float s = float(i);
    start.position[i] = 1.1f * start.position[i] + 0.005f * glm::vec3(std::sin(s), std::cos(3 * s), std::sin(7 * s));
    start.velocity[i] = 0.3f * glm::vec3(std::cos(5 * s), std::sin(2 * s), std::cos(s));
  }
  start.velocity[3] = glm::vec3(0.f);
  const float h = 1.f / 120.f, h2 = h * h;
  for (int k : {1, 3}) {
    ClothState state = start;
    make_integrator(IntegratorKind::ApproximateImplicit, model, {.iterations = k})->step(model, state, h);

    ForceBuffers f(model);
    evaluate_forces(model, start.position.data(), start.velocity.data(), f, {.jacobian = true, .viscosity_h = h});
    const size_t n = model.vertex_count();
    std::vector<Sym3> w_inv(n);
    std::vector<glm::vec3> p(n), dv(n);
    for (size_t i = 0; i < n; ++i) {
      if (start.kinematic[i]) continue;
      Sym3 W = h2 * f.jacobian_sum[i];  // M - h^2 J_ii + h (n_i C_d + c_drag) I
      W.add_diagonal(model.mass[i] + h * (float(model.link_count[i]) * m.damping + f.drag_coefficient[i]));
      w_inv[i] = W.inverse();
      p[i] = w_inv[i] * (h * f.force[i]);
    }
    dv = p;
    for (int it = 0; it < k; ++it) {
      std::vector<glm::vec3> sum(n, glm::vec3(0.f));
      for (size_t l = 0; l < model.link_count_total(); ++l) {
        const uint32_t i = model.link_first[l], j = model.link_second[l];
        Sym3 B = h2 * f.link_jacobian.get(l);
        B.add_diagonal(h * m.damping);
        sum[i] += B * dv[j];
        sum[j] += B * dv[i];
      }
      std::vector<glm::vec3> next(n);
      for (size_t i = 0; i < n; ++i) next[i] = p[i] + w_inv[i] * sum[i];
      dv = next;
    }
    for (size_t i = 0; i < n; ++i) {
      const glm::vec3 v = start.velocity[i] + dv[i];
      for (int a = 0; a < 3; ++a) {
        CHECK(state.velocity[i][a] == doctest::Approx(v[a]).epsilon(1e-4).scale(1.f));
        CHECK(state.position[i][a] == doctest::Approx(start.position[i][a] + h * v[a]).epsilon(1e-5).scale(1.f));
      }
    }
  }
}

TEST_CASE("translation correction: a cloth stuck on a collider keeps only the normal part, a sliding one all of it") {
  // Gravity tilted 45 degrees in x-y; the correction is what makes the approximate solver reach g.
  Material m = stiff_cotton();
  m.gravity = {6.94f, -6.94f, 0.f};
  const ClothModel model = grid_model(m);
  const float h = 1.f / 240.f;
  auto mean_after = [&](bool contact, bool stuck) {
    auto integrator = make_integrator(IntegratorKind::ApproximateImplicit, model, {.translation_correction = true});
    ClothState s = make_rest_state(model);
    for (int i = 0; i < 24; ++i) {
      s.contact_axes.clear();  // what World's collider pass leaves for the next step: a floor contact
      if (contact) s.contact_axes.add({0.f, 1.f, 0.f});
      s.contact_axes.stuck = stuck;
      integrator->step(model, s, h);
    }
    return mean_velocity(model, s);
  };
  const float full = 6.94f * 24 * h;
  const glm::vec3 free = mean_after(false, false), sliding = mean_after(true, false), stuck = mean_after(true, true);
  CHECK(free.x == doctest::Approx(full).epsilon(1e-3));
  CHECK(free.y == doctest::Approx(-full).epsilon(1e-3));
  CHECK(sliding.x == doctest::Approx(full).epsilon(1e-3));  // sliding contacts: the whole correction
  CHECK(stuck.y == doctest::Approx(-full).epsilon(1e-3));   // stuck: the normal part still corrected
  CHECK(stuck.x < 0.99f * full);                            // but not the tangential drift
  CHECK(stuck.z == doctest::Approx(0.f).epsilon(1e-6));
}
