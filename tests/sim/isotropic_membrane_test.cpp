#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "sim/isotropic_membrane.h"
#include "tests/sim/triangle_fd_checks.h"

using namespace weft;

namespace {

const std::array<glm::vec3, 3> kStill{};

// The test material of the tensile validation: 100 e + 1000 e^3 N/m, odd in e.
StressCurve test_curve() {
  std::vector<float> e, s;
  for (int k = -8; k <= 8; ++k) {
    const float x = 0.1f * float(k);
    e.push_back(x);
    s.push_back(100.f * x + 1000.f * x * x * x);
  }
  return StressCurve::from_points(e, s);
}

// -d2E/dP2 assembled from the three pair blocks (the diagonal blocks are minus the sum of their row).
float quadratic_form(const WeaveTriangleResult& r, const std::array<glm::vec3, 3>& d) {
  static constexpr int pair[3][2] = {{0, 1}, {1, 2}, {0, 2}};
  float sum = 0;
  for (int q = 0; q < 3; ++q) {
    const int k = pair[q][0], l = pair[q][1];
    const glm::vec3 dd = d[k] - d[l];  // sum_kl d_k^T J_kl d_l with J_kk = -sum_l J_kl
    sum += glm::dot(dd, r.stiffness[q] * dd);
  }
  return sum;  // = d^T H d for the symmetrised blocks (J = -H)
}

}  // namespace

TEST_CASE("principal stretches of a known deformation") {
  const float c = std::cos(0.4f), s = std::sin(0.4f);
  // principal axes at 0.4 rad in the weave plane with stretches 1.3 and 0.9, then rotated into 3D
  const glm::vec2 a1(c, s), a2(-s, c);
  const glm::vec3 e1 = glm::normalize(glm::vec3(1, 0.2f, -0.5f)), e2 = glm::normalize(glm::cross(glm::vec3(0, 0, 1), e1));
  const glm::vec3 f2 = glm::normalize(e2 - glm::dot(e2, e1) * e1);
  // F = 1.3 e1 a1^T + 0.9 f2 a2^T: columns U = F (1,0), V = F (0,1)
  const glm::vec3 U = 1.3f * a1.x * e1 + 0.9f * a2.x * f2, V = 1.3f * a1.y * e1 + 0.9f * a2.y * f2;
  const PrincipalStretch ps = principal_stretch(U, V);
  CHECK(ps.s[0] == doctest::Approx(1.3f));
  CHECK(ps.s[1] == doctest::Approx(0.9f));
  CHECK(std::fabs(glm::dot(ps.v[0], a1)) == doctest::Approx(1.f));
  for (int k = 0; k < 2; ++k) {
    const glm::vec2 basis = k == 0 ? glm::vec2(1, 0) : glm::vec2(0, 1);
    const glm::vec3 col = k == 0 ? U : V;
    const glm::vec3 rebuilt = ps.s[0] * glm::dot(ps.v[0], basis) * ps.u[0] + ps.s[1] * glm::dot(ps.v[1], basis) * ps.u[1];
    CHECK(glm::length(rebuilt - col) < 1e-5f);
  }
  CHECK(std::fabs(glm::dot(ps.u[0], ps.u[1])) < 1e-5f);
  SUBCASE("equal stretches and a collapsed triangle stay finite") {
    const PrincipalStretch eq = principal_stretch({1.1f, 0, 0}, {0, 1.1f, 0});
    CHECK(eq.s[0] == doctest::Approx(1.1f));
    CHECK(eq.s[1] == doctest::Approx(1.1f));
    const PrincipalStretch flat = principal_stretch({1, 0, 0}, {2, 0, 0});
    CHECK(flat.s[1] == doctest::Approx(0.f).scale(1));
    CHECK(std::isfinite(flat.u[1].x));
    CHECK(glm::length(flat.n) == doctest::Approx(1.f));
  }
}

TEST_CASE("isotropic membrane: the same uniaxial answer at every weave angle") {
  // A triangle whose weave axes run at theta from x, stretched by diag(1.5, 1) in x: energy A Phi(0.5), and
  // the pull on the corners is the same for every theta. Eq. 4 strains would differ by 15-25 % here.
  const StressCurve curve = test_curve();
  const std::array<glm::vec2, 3> xy = {glm::vec2(0, 0), glm::vec2(0.05f, 0.01f), glm::vec2(0.02f, 0.04f)};
  std::array<glm::vec3, 3> p;
  for (int k = 0; k < 3; ++k) p[k] = {1.5f * xy[k].x, xy[k].y, 0.f};
  double energy0 = 0;
  std::array<glm::vec3, 3> force0{};
  for (float deg : {0.f, 15.f, 30.f, 45.f, 90.f}) {
    INFO(deg << " degrees");
    const float t = glm::radians(deg), c = std::cos(t), s = std::sin(t);
    std::array<glm::vec2, 3> uv;
    for (int k = 0; k < 3; ++k) uv[k] = {c * xy[k].x + s * xy[k].y, -s * xy[k].x + c * xy[k].y};
    WeaveCoefficients w;
    REQUIRE(weave_coefficients(uv[0], uv[1], uv[2], w));
    WeaveTriangleResult r;
    isotropic_triangle(w, p, kStill, curve, 0.f, false, r);
    CHECK(r.energy == doctest::Approx(double(w.area) * curve.energy(0.5f)).epsilon(1e-4));
    if (deg == 0.f) { energy0 = r.energy; force0 = r.force; }
    CHECK(r.energy == doctest::Approx(energy0).epsilon(1e-5));
    for (int k = 0; k < 3; ++k) CHECK(glm::length(r.force[k] - force0[k]) < 1e-4f * glm::length(force0[1]) + 1e-7f);
  }
}

TEST_CASE("isotropic membrane: forces are minus the energy gradient and blocks match finite differences") {
  const StressCurve curve = test_curve();
  WeaveCoefficients w;
  REQUIRE(weave_coefficients({0.01f, 0.f}, {0.06f, 0.01f}, {0.02f, 0.045f}, w));
  const auto kernel = [&](const std::array<glm::vec3, 3>& q, bool blocks, WeaveTriangleResult& out) {
    isotropic_triangle(w, q, kStill, curve, 0.f, blocks, out);
  };
  SUBCASE("forces, stretched and sheared in 3D") {
    test::check_forces_are_energy_gradient(kernel, {glm::vec3(0.01f, 0.f, 0.f), glm::vec3(0.066f, 0.012f, 0.004f),
                                                    glm::vec3(0.021f, 0.05f, -0.003f)});
  }
  SUBCASE("blocks, stretched in both directions (no mode dropped), out of plane") {
    const std::array<glm::vec3, 3> p = {glm::vec3(0.01f, 0.f, 0.f), glm::vec3(0.071f, 0.013f, 0.006f),
                                        glm::vec3(0.024f, 0.054f, -0.004f)};
    WeaveTriangleResult r;
    isotropic_triangle(w, p, kStill, curve, 0.f, true, r);
    REQUIRE(r.strain.vv > 0.02f);
    test::check_blocks_against_finite_differences(kernel, p);
  }
  SUBCASE("compressed and crumpled: the blocks stay positive semi-definite, rest gives no force") {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    const std::array<glm::vec3, 3> p = {glm::vec3(0.01f, 0.f, 0.f), glm::vec3(0.04f, 0.01f, 0.003f),
                                        glm::vec3(0.02f, 0.03f, -0.002f)};
    WeaveTriangleResult r;
    isotropic_triangle(w, p, kStill, curve, 0.f, true, r);
    CHECK(r.strain.uu < 0.f);
    for (int trial = 0; trial < 50; ++trial) {
      std::array<glm::vec3, 3> d;
      for (auto& x : d) x = {u(rng), u(rng), u(rng)};
      CHECK(quadratic_form(r, d) >= -1e-6f);
    }
    const std::array<glm::vec3, 3> rest = {glm::vec3(0.01f, 0.f, 0.f), glm::vec3(0.06f, 0.01f, 0.f),
                                           glm::vec3(0.02f, 0.045f, 0.f)};
    isotropic_triangle(w, rest, kStill, curve, 0.f, true, r);
    for (int k = 0; k < 3; ++k) CHECK(glm::length(r.force[k]) < 1e-5f);
    CHECK(r.energy == doctest::Approx(0.0).scale(1));
  }
  SUBCASE("viscosity resists the principal stretch rates") {
    const std::array<glm::vec3, 3> rest = {glm::vec3(0.01f, 0.f, 0.f), glm::vec3(0.06f, 0.01f, 0.f),
                                           glm::vec3(0.02f, 0.045f, 0.f)};
    const std::array<glm::vec3, 3> v = {glm::vec3(-1, 0, 0), glm::vec3(1, 0, 0), glm::vec3(0, 0, 0)};
    WeaveTriangleResult r;
    isotropic_triangle(w, rest, v, curve, 2.f, false, r);
    float power = 0;
    for (int k = 0; k < 3; ++k) power += glm::dot(r.force[k], v[k]);
    CHECK(power < 0.f);  // dissipates
  }
}
