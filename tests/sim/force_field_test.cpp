#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <random>

#include "sim/force_field.h"
#include "sim/force_kernels.h"
#include "sim/mesh_generators.h"

using namespace weft;

namespace {

// Random deformed state of a model: stretched and compressed links, moving vertices.
void deform(const ClothModel& model, std::vector<glm::vec3>& x, std::vector<glm::vec3>& v, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> U(-1.f, 1.f);
  x = model.rest_position;
  v.assign(model.vertex_count(), glm::vec3(0.f));
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = 1.2f * x[i] + 0.01f * glm::vec3(U(rng), U(rng), U(rng));
    v[i] = glm::vec3(U(rng), U(rng), U(rng));
  }
}

// The link pass written out link by link with force_kernels.h: what the vectorised passes must add up to.
void reference_forces(const ClothModel& model, const std::vector<glm::vec3>& x, const std::vector<glm::vec3>& v,
                      const std::vector<float>& tension, float h, std::vector<glm::vec3>& f, std::vector<Sym3>& js,
                      std::vector<Sym3>& link_j) {
  const Material& m = model.material;
  f.assign(model.vertex_count(), glm::vec3(0.f));
  js.assign(model.vertex_count(), Sym3{});
  link_j.assign(model.link_count_total(), Sym3{});
  for (size_t i = 0; i < model.vertex_count(); ++i) f[i] = model.mass[i] * m.gravity;
  const bool volino = m.stretch_model == StretchModel::Volino;
  for (size_t l = 0; l < model.link_count_total(); ++l) {
    const uint32_t i = model.link_first[l], j = model.link_second[l];
    const glm::vec3 d = x[j] - x[i];
    const float len = glm::length(d);
    const glm::vec3 u = d / len;
    const float t = volino && l < model.edge_count ? tension[l] : model.stiffness[l] * (len - model.rest_length[l]);
    const Sym3 J = link_jacobian(model.stiffness[l], t, u, len);
    const glm::vec3 fl = t * u + m.damping * (v[j] - v[i]) + h * (J * (v[j] - v[i]));
    f[i] += fl;
    f[j] -= fl;
    js[i] += J;
    js[j] += J;
    link_j[l] = J;
  }
}

void check_close(const glm::vec3& a, const glm::vec3& b, float scale) {
  for (int k = 0; k < 3; ++k) CHECK(a[k] == doctest::Approx(b[k]).epsilon(1e-5).scale(scale));
}

void check_close(const Sym3& a, const Sym3& b, float scale) {
  const float av[6] = {a.xx, a.xy, a.xz, a.yy, a.yz, a.zz}, bv[6] = {b.xx, b.xy, b.xz, b.yy, b.yz, b.zz};
  for (int k = 0; k < 6; ++k) CHECK(av[k] == doctest::Approx(bv[k]).epsilon(1e-5).scale(scale));
}

void compare_with_reference(const Material& material) {
  // Irregular mesh with a link count that is not a multiple of 8, so the SIMD pass and its scalar tail both run.
  const Mesh mesh = make_irregular({.width = 0.5f, .height = 0.4f, .columns = 9, .rows = 7, .seed = 5});
  const ClothModel model = build_cloth_model(mesh, material);
  REQUIRE(model.link_count_total() % 8 != 0);
  std::vector<glm::vec3> x, v;
  deform(model, x, v, 11);
  ForceBuffers out(model);
  const float h = 1.f / 120.f;
  evaluate_forces(model, x.data(), v.data(), out, {.jacobian = true, .viscosity_h = h});
  std::vector<glm::vec3> f;
  std::vector<Sym3> js, link_j;
  reference_forces(model, x, v, out.tension, h, f, js, link_j);
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    check_close(out.force[i], f[i], 1.f);
    check_close(out.jacobian_sum[i], js[i], 100.f);
  }
  for (size_t l = 0; l < model.link_count_total(); ++l) check_close(out.link_jacobian.get(l), link_j[l], 100.f);

  // Without the Jacobian (explicit integrators) the forces lack only the viscosity term.
  ForceBuffers plain(model);
  evaluate_forces(model, x.data(), v.data(), plain, {.jacobian = false});
  reference_forces(model, x, v, plain.tension, 0.f, f, js, link_j);  // same Volino tensions
  for (size_t i = 0; i < model.vertex_count(); ++i) check_close(plain.force[i], f[i], 1.f);
}

}  // namespace

TEST_CASE("evaluate_forces adds up every link's spring, damping and viscosity force and Jacobian block") {
  Material m;
  m.stretch_stiffness = 300.f;
  m.bend_stiffness = 2.f;
  m.damping = 0.05f;
  compare_with_reference(m);
}

TEST_CASE("evaluate_forces with Volino triangles uses their tensions on the edges and springs on the bend links") {
  Material m;
  m.stretch_model = StretchModel::Volino;
  m.young_modulus = 300.f;
  m.alpha = 0.8f;
  m.bend_stiffness = 2.f;
  m.damping = 0.05f;
  compare_with_reference(m);
}

namespace {

// Volino & Thalmann 1997 Annex written out again from the paper for one triangle, in double precision
// and independently of sim/force_kernels.cpp (which solves system (9) by Cramer's rule): cosines (Eq. 1),
// the equal-mass tensions in the closed form of Eq. 10, corner forces from Eq. 11 (the acceleration
// times the mass, 1 / M_i). Corner i is opposite edge i; strengths R_i / L_i = Y A / L_i^2, the choice
// that makes alpha = 0 the area-weighted spring k = Y A / L^2 (sim/cloth_model.cpp).
std::array<glm::dvec3, 3> volino_annex_forces(const std::array<glm::dvec3, 3>& P, const std::array<glm::dvec3, 3>& rest,
                                              double young, double alpha) {
  const double area = 0.5 * glm::length(glm::cross(rest[1] - rest[0], rest[2] - rest[0]));
  std::array<double, 3> l, L, c, e, F;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    l[i] = glm::length(P[k] - P[j]);  // Eq. 0
    L[i] = glm::length(rest[k] - rest[j]);
    e[i] = l[i] - L[i];
  }
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    c[i] = alpha * (l[j] * l[j] + l[k] * l[k] - l[i] * l[i]) / (2 * l[j] * l[k]);  // Eq. 1
  }
  const double den = c[0] * c[0] + c[1] * c[1] + c[2] * c[2] - c[0] * c[1] * c[2] - 4;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double strength = young * area / (L[i] * L[i]);
    F[i] = strength * ((c[i] * c[i] - 4) * e[i] - (c[i] * c[j] - 2 * c[k]) * e[j] - (c[i] * c[k] - 2 * c[j]) * e[k]) /
           den;  // Eq. 10
  }
  std::array<glm::dvec3, 3> f;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    f[i] = F[j] / l[j] * (P[k] - P[i]) + F[k] / l[k] * (P[j] - P[i]);  // Eq. 11
  }
  return f;
}

// evaluate_forces on a one-triangle Volino cloth (no gravity, damping or air; at rest in velocity), by both
// paths: with the Jacobian (implicit solvers, SIMD link pass) and without (explicit integrators).
std::array<std::array<glm::vec3, 3>, 2> one_triangle_forces(const std::array<glm::vec3, 3>& rest,
                                                            const std::array<glm::vec3, 3>& x, float young, float alpha) {
  Mesh mesh;
  mesh.positions.assign(rest.begin(), rest.end());
  for (const glm::vec3& p : rest) mesh.material.push_back(glm::vec2(p.x, p.y));
  mesh.triangles = {{0, 1, 2}};
  Material m;
  m.stretch_model = StretchModel::Volino;
  m.young_modulus = young;
  m.alpha = alpha;
  m.damping = 0.f;
  m.gravity = glm::vec3(0.f);
  const ClothModel model = build_cloth_model(mesh, m);
  REQUIRE(model.triangle_count() == 1);
  REQUIRE(model.triangle[0] == std::array<uint32_t, 3>{0, 1, 2});
  const std::vector<glm::vec3> pos(x.begin(), x.end()), vel(3, glm::vec3(0.f));
  std::array<std::array<glm::vec3, 3>, 2> out;
  for (int path = 0; path < 2; ++path) {
    ForceBuffers buffers(model);
    evaluate_forces(model, pos.data(), vel.data(), buffers, {.jacobian = path == 0, .viscosity_h = 0.f});
    for (int i = 0; i < 3; ++i) out[path][i] = buffers.force[i];
  }
  return out;
}

}  // namespace

TEST_CASE("evaluate_forces on a Volino triangle: hand values of Annex Eq. 10-11 for a 10 % uniaxial stretch") {
  // Legs of 0.1 m along x (corners 0-1) and y (corners 0-2), the x leg stretched to 0.11 m; Y = 500 N/m.
  // By hand, with c_0 = 0, c_1 = 1.1 / sqrt(2.21), c_2 = 1 / sqrt(2.21) (alpha = 1) and denominator -3:
  // corner 0 gets (2.06348, -0.39684, 0) N, corner 1 (-2.5, 0.39684, 0), corner 2 (0.43652, 0, 0): the
  // transverse corner feels no transverse force (zero Poisson ratio). Spring-mass (alpha = 0) instead pulls
  // corner 2 down by 0.60871 N.
  const std::array<glm::vec3, 3> rest = {glm::vec3(0.f), glm::vec3(0.1f, 0.f, 0.f), glm::vec3(0.f, 0.1f, 0.f)};
  const std::array<glm::vec3, 3> x = {glm::vec3(0.f), glm::vec3(0.11f, 0.f, 0.f), glm::vec3(0.f, 0.1f, 0.f)};
  const std::array<glm::vec3, 3> hand1 = {glm::vec3(2.06348f, -0.39684f, 0.f), glm::vec3(-2.5f, 0.39684f, 0.f),
                                          glm::vec3(0.43652f, 0.f, 0.f)};
  const std::array<glm::vec3, 3> hand0 = {glm::vec3(2.5f, 0.f, 0.f), glm::vec3(-3.16958f, 0.60871f, 0.f),
                                          glm::vec3(0.66958f, -0.60871f, 0.f)};
  for (float alpha : {1.f, 0.f}) {
    CAPTURE(alpha);
    const auto& hand = alpha > 0.f ? hand1 : hand0;
    const auto annex = volino_annex_forces({glm::dvec3(x[0]), glm::dvec3(x[1]), glm::dvec3(x[2])},
                                           {glm::dvec3(rest[0]), glm::dvec3(rest[1]), glm::dvec3(rest[2])}, 500.0, alpha);
    for (const auto& f : one_triangle_forces(rest, x, 500.f, alpha))
      for (int i = 0; i < 3; ++i) {
        CAPTURE(i);
        for (int a = 0; a < 3; ++a) {  // to 1e-4 N of forces up to 3 N
          CHECK(annex[i][a] == doctest::Approx(hand[i][a]).epsilon(3e-5).scale(3.0));  // the reference is right
          CHECK(f[i][a] == doctest::Approx(hand[i][a]).epsilon(3e-5).scale(3.0));
        }
      }
  }
}

TEST_CASE("evaluate_forces on a Volino triangle matches Annex Eq. 1, 10, 11 for alpha 0.6, 1 and 1.2") {
  // A scalene triangle, stretched, sheared and lifted out of its plane.
  const std::array<glm::vec3, 3> rest = {glm::vec3(0.f), glm::vec3(0.12f, 0.01f, 0.f), glm::vec3(0.03f, 0.09f, 0.f)};
  const std::array<glm::vec3, 3> x = {glm::vec3(0.005f, -0.002f, 0.001f), glm::vec3(0.135f, 0.02f, -0.01f),
                                      glm::vec3(0.02f, 0.085f, 0.015f)};
  for (float alpha : {0.6f, 1.f, 1.2f}) {
    CAPTURE(alpha);
    const auto annex = volino_annex_forces({glm::dvec3(x[0]), glm::dvec3(x[1]), glm::dvec3(x[2])},
                                           {glm::dvec3(rest[0]), glm::dvec3(rest[1]), glm::dvec3(rest[2])}, 800.0, alpha);
    const auto springs = volino_annex_forces({glm::dvec3(x[0]), glm::dvec3(x[1]), glm::dvec3(x[2])},
                                             {glm::dvec3(rest[0]), glm::dvec3(rest[1]), glm::dvec3(rest[2])}, 800.0, 0.0);
    double scale = 0, differs = 0;
    for (int i = 0; i < 3; ++i) {
      scale = std::max(scale, glm::length(annex[i]));
      differs = std::max(differs, glm::length(annex[i] - springs[i]));
    }
    REQUIRE(differs > 0.05 * scale);  // alpha matters here, so a model that ignores it cannot pass
    for (const auto& f : one_triangle_forces(rest, x, 800.f, alpha))
      for (int i = 0; i < 3; ++i) {
        CAPTURE(i);
        for (int a = 0; a < 3; ++a) CHECK(f[i][a] == doctest::Approx(annex[i][a]).epsilon(1e-4).scale(scale));
      }
  }
}
