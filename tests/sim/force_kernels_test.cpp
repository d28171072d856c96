#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <random>

#include "sim/force_kernels.h"

using namespace weft;

namespace {
// Spring energy 1/2 k (l - l0)^2 of the link (xi, xj).
double spring_energy(double k, double l0, glm::dvec3 xi, glm::dvec3 xj) {
  const double s = glm::length(xj - xi) - l0;
  return 0.5 * k * s * s;
}
}  // namespace

TEST_CASE("spring force is minus the energy gradient") {
  const float k = 40.f, l0 = 0.1f;
  const glm::vec3 xi(0.01f, -0.02f, 0.03f), xj(0.13f, 0.02f, -0.01f);
  const glm::vec3 f = spring_force(k, l0, xi, xj);
  const double eps = 1e-6;
  for (int a = 0; a < 3; ++a) {
    glm::dvec3 p(xi), m(xi);
    p[a] += eps;
    m[a] -= eps;
    const double grad = (spring_energy(k, l0, p, xj) - spring_energy(k, l0, m, xj)) / (2 * eps);
    CHECK(f[a] == doctest::Approx(-grad).epsilon(1e-4));
  }
}

TEST_CASE("link Jacobian matches finite differences of the force when stretched") {
  const float k = 250.f, l0 = 0.1f;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> U(-0.05f, 0.05f);
  for (int trial = 0; trial < 20; ++trial) {
    const glm::vec3 xi(U(rng), U(rng), U(rng));
    glm::vec3 dir = glm::normalize(glm::vec3(1.f + U(rng), U(rng), U(rng)));
    const glm::vec3 xj = xi + dir * (l0 * (1.05f + 10.f * std::abs(U(rng))));  // stretched 5-55 %
    const glm::vec3 d = xj - xi;
    const float len = glm::length(d);
    const Sym3 J = link_jacobian(k, k * (len - l0), d / len, len);
    const glm::mat3 Jm = J.to_mat3();
    const float eps = 1e-4f;
    for (int b = 0; b < 3; ++b) {
      glm::vec3 p = xj, m = xj;
      p[b] += eps;
      m[b] -= eps;
      const glm::vec3 col = (spring_force(k, l0, xi, p) - spring_force(k, l0, xi, m)) / (2 * eps);  // df_i/dx_j
      for (int a = 0; a < 3; ++a) CHECK(Jm[b][a] == doctest::Approx(col[a]).epsilon(2e-2).scale(k));
    }
  }
}

TEST_CASE("link Jacobian stays bounded and positive semi-definite when compressed") {
  const float k = 1000.f, l0 = 0.1f;
  for (float ratio : {0.9f, 0.5f, 0.1f, 1e-3f, 1e-6f}) {
    const glm::vec3 u = glm::normalize(glm::vec3(0.3f, -0.5f, 0.8f));
    const float len = l0 * ratio;
    const Sym3 J = link_jacobian(k, k * (len - l0), u, len);
    const glm::mat3 Jm = J.to_mat3();
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) CHECK(std::abs(Jm[a][b]) <= k * 1.0001f);
    // Kang & Cho Eq. 22: k u u^T exactly
    CHECK(glm::length(J * u - k * u) < 1e-3f * k);
    const glm::vec3 w = glm::normalize(glm::cross(u, glm::vec3(1, 0, 0)));
    CHECK(glm::length(J * w) < 1e-3f * k);
  }
}

TEST_CASE("Volino tensions: alpha 0 is the spring-mass model") {
  const std::array<float, 3> l = {1.1f, 0.95f, 1.3f}, L = {1.f, 1.f, 1.2f}, R = {10.f, 20.f, 30.f}, M = {1, 1, 1};
  const auto F = volino_tensions(l, L, R, M, 0.f, false);
  for (int i = 0; i < 3; ++i) CHECK(F[i] == doctest::Approx(R[i] * (l[i] - L[i])));
}

TEST_CASE("Volino equal-mass form (Eq. 10) matches the general form (Eq. 7) for equal masses") {
  const std::array<float, 3> l = {1.1f, 0.95f, 1.3f}, L = {1.f, 1.f, 1.2f}, R = {10.f, 20.f, 30.f};
  for (float alpha : {0.6f, 1.f, 1.2f}) {
    const auto a = volino_tensions(l, L, R, {2.f, 2.f, 2.f}, alpha, false);
    const auto b = volino_tensions(l, L, R, {2.f, 2.f, 2.f}, alpha, true);
    for (int i = 0; i < 3; ++i) CHECK(a[i] == doctest::Approx(b[i]).epsilon(1e-4));
    // and satisfies system (9): d_i + c_k/2 d_j + c_j/2 d_k = l_i - L_i
    std::array<float, 3> c, d;
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      c[i] = alpha * (l[j] * l[j] + l[k] * l[k] - l[i] * l[i]) / (2 * l[j] * l[k]);
      d[i] = a[i] / R[i];
    }
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      CHECK(d[i] + 0.5f * c[k] * d[j] + 0.5f * c[j] * d[k] == doctest::Approx(l[i] - L[i]).epsilon(1e-4));
    }
  }
}

TEST_CASE("Volino tensions of a right triangle stretched 10 % along a leg: Eq. 10 by hand, and at alpha 1 the "
          "transverse corner gets no transverse force, at alpha 0 it is pulled in") {
  // Right angle at corner 0, legs of 1 along x (edge 2, corners 0-1) and y (edge 1, corners 0-2); x stretched
  // to 1.1. Strengths R_i / L_i = Y A / L_i^2 (sim/cloth_model.cpp) with Y A = 2: 1 on the hypotenuse, 2 on
  // the legs. By hand from Eq. 10 with c_0 = 0, c_1 = 1.1 / sqrt(2.21), c_2 = 1 / sqrt(2.21) (so the
  // denominator is -3) and e = (sqrt(2.21) - sqrt(2), 0, 0.1): F = (0.047195, -0.031747, 0.165078).
  const float sx = 1.1f;
  const std::array<float, 3> L = {std::sqrt(2.f), 1.f, 1.f}, R = {1.f, 2.f, 2.f};
  const std::array<float, 3> l = {std::sqrt(sx * sx + 1.f), 1.f, sx};
  const auto F = volino_tensions(l, L, R, {1, 1, 1}, 1.f, false);
  CHECK(F[0] == doctest::Approx(0.047195f).epsilon(1e-4));
  CHECK(F[1] == doctest::Approx(-0.031747f).epsilon(1e-4));  // the y leg is compressed ...
  CHECK(F[2] == doctest::Approx(0.165078f).epsilon(1e-4));
  // ... just enough that corner 2's two edges cancel along y (zero Poisson ratio): F_0 / l_0 + F_1 / l_1 = 0.
  CHECK(std::abs(F[0] / l[0] + F[1] / l[1]) < 1e-5f);
  // Spring-mass: only the stretched edges pull, and the hypotenuse drags corner 2 down by F_0 / l_0.
  const auto F0 = volino_tensions(l, L, R, {1, 1, 1}, 0.f, false);
  CHECK(F0[1] == 0.f);
  CHECK(F0[0] / l[0] + F0[1] / l[1] == doctest::Approx(0.048697f).epsilon(1e-4));
}

TEST_CASE("air drag opposes motion across the surface and vanishes edge-on") {
  const glm::vec3 n(0, 0, 1);
  const auto face_on = air_force(n, glm::vec3(0, 0, 2.f), 0.5f, 1.f, 0.f);
  CHECK(face_on.force.z == doctest::Approx(-1.f * 0.5f * 4.f));
  CHECK(face_on.drag_coefficient == doctest::Approx(0.5f * 2.f));
  const auto edge_on = air_force(n, glm::vec3(2.f, 0, 0), 0.5f, 1.f, 0.f);
  CHECK(glm::length(edge_on.force) == doctest::Approx(0.f));
  const auto lifted = air_force(glm::normalize(glm::vec3(0.3f, 0, -1)), glm::vec3(1.f, 0, 0), 1.f, 0.f, 1.f);
  CHECK(std::abs(glm::dot(lifted.force, glm::vec3(1, 0, 0))) < 1e-5f);  // perpendicular to the velocity
  CHECK(glm::length(lifted.force) > 0.f);
}
