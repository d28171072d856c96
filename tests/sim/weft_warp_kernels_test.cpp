#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "sim/weft_warp_kernels.h"
#include "tests/sim/triangle_fd_checks.h"

using namespace weft;

namespace {

// Right triangle with weave coordinates (0,0), (a,0), (0,a): U and V are the images of the weft and warp.
WeaveCoefficients unit_triangle(float a) {
  WeaveCoefficients w;
  REQUIRE(weave_coefficients({0, 0}, {a, 0}, {0, a}, w));
  return w;
}

std::array<glm::vec3, 3> apply(const glm::mat3& F, float a) {
  return {glm::vec3(0.f), F * glm::vec3(a, 0, 0), F * glm::vec3(0, a, 0)};
}

const std::array<glm::vec3, 3> kStill{};

}  // namespace

TEST_CASE("weave strain of known deformations (Eq. 4)") {
  const float a = 0.1f;
  const WeaveCoefficients w = unit_triangle(a);
  CHECK(w.area == doctest::Approx(0.005f));
  SUBCASE("rest") {
    const WeaveStrain e = weave_strain(w, apply(glm::mat3(1.f), a), kStill);
    CHECK(e.uu == doctest::Approx(0.f).scale(1));
    CHECK(e.vv == doctest::Approx(0.f).scale(1));
    CHECK(e.uv == doctest::Approx(0.f).scale(1));
  }
  SUBCASE("20 % weft, 10 % warp, rotated in space") {
    glm::mat3 F(1.f);
    F[0][0] = 1.2f;
    F[1][1] = 0.9f;
    const float c = std::cos(0.7f), s = std::sin(0.7f);
    const glm::mat3 R(glm::vec3(c, 0, -s), glm::vec3(0, 1, 0), glm::vec3(s, 0, c));
    const WeaveStrain e = weave_strain(w, apply(R * F, a), kStill);
    CHECK(e.uu == doctest::Approx(0.2f));
    CHECK(e.vv == doctest::Approx(-0.1f));
    CHECK(e.uv == doctest::Approx(0.f).scale(1));
  }
  SUBCASE("simple shear: e_uv = (|U+V| - |U-V|) / sqrt 2") {
    glm::mat3 F(1.f);
    F[1][0] = 0.3f;  // x += 0.3 y: V = (0.3, 1, 0)
    const WeaveStrain e = weave_strain(w, apply(F, a), kStill);
    CHECK(e.uu == doctest::Approx(0.f).scale(1));
    CHECK(e.vv == doctest::Approx(std::sqrt(1.09f) - 1.f));
    CHECK(e.uv == doctest::Approx((std::sqrt(1.3f * 1.3f + 1.f) - std::sqrt(0.7f * 0.7f + 1.f)) / std::sqrt(2.f)));
  }
  SUBCASE("strain rates (Eq. 6) are the time derivatives of the strains") {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> U(-1.f, 1.f);
    std::array<glm::vec3, 3> p, v;
    for (int k = 0; k < 3; ++k) {
      p[k] = apply(glm::mat3(1.f), a)[k] + 0.02f * glm::vec3(U(rng), U(rng), U(rng));
      v[k] = glm::vec3(U(rng), U(rng), U(rng));
    }
    const float dt = 1e-4f;
    std::array<glm::vec3, 3> p1 = p, p0 = p;
    for (int k = 0; k < 3; ++k) { p1[k] += dt * v[k]; p0[k] -= dt * v[k]; }
    const WeaveStrain e = weave_strain(w, p, v), e1 = weave_strain(w, p1, kStill), e0 = weave_strain(w, p0, kStill);
    CHECK(e.duu == doctest::Approx((e1.uu - e0.uu) / (2 * dt)).epsilon(1e-2));
    CHECK(e.dvv == doctest::Approx((e1.vv - e0.vv) / (2 * dt)).epsilon(1e-2));
    CHECK(e.duv == doctest::Approx((e1.uv - e0.uv) / (2 * dt)).epsilon(1e-2));
  }
}

TEST_CASE("weave triangle forces are minus the energy gradient and blocks match finite differences") {
  const StressCurve weft = StressCurve::from_points({-0.1f, 0.f, 0.1f, 0.3f}, {-20.f, 0.f, 40.f, 400.f});
  const StressCurve warp = StressCurve::from_points({-0.1f, 0.f, 0.2f}, {-5.f, 0.f, 60.f});
  const StressCurve shear = StressCurve::linear(15.f);
  const WeaveLaw law{{&weft, &warp, &shear}, {0.f, 0.f, 0.f}};
  WeaveCoefficients w;
  REQUIRE(weave_coefficients({0.01f, 0.f}, {0.06f, 0.01f}, {0.02f, 0.045f}, w));
  const auto kernel = [&](const std::array<glm::vec3, 3>& q, bool blocks, WeaveTriangleResult& out) {
    weave_triangle(w, q, kStill, law, blocks, out);
  };
  const std::array<glm::vec3, 3> p = {glm::vec3(0.01f, 0.f, 0.f), glm::vec3(0.066f, 0.012f, 0.004f),
                                      glm::vec3(0.021f, 0.05f, -0.003f)};  // stretched and sheared, in 3D
  WeaveTriangleResult r;
  weave_triangle(w, p, kStill, law, true, r);
  CHECK(r.strain.uu > 0.05f);
  test::check_forces_are_energy_gradient(kernel, p);
  // Stiffness blocks at a state where every stress is positive (tension on all three measures, so no
  // geometric term is dropped).
  const std::array<glm::vec3, 3> taut = {glm::vec3(0.01f, 0.f, 0.f), glm::vec3(0.068f, 0.013f, 0.f),
                                         glm::vec3(0.024f, 0.051f, 0.f)};
  weave_triangle(w, taut, kStill, law, true, r);
  REQUIRE(r.strain.uu > 0.f);
  REQUIRE(r.strain.vv > 0.f);
  REQUIRE(r.strain.uv >= 0.f);
  test::check_blocks_against_finite_differences(kernel, taut);
}

TEST_CASE("weave triangle viscosity: damping blocks are d F / d V") {
  // Weft and warp only: the shear damping block g_k g_l^T is not symmetric and is stored symmetrised.
  const StressCurve zero = StressCurve::linear(0.f);
  const WeaveLaw law{{&zero, &zero, &zero}, {0.3f, 0.2f, 0.f}};
  const WeaveCoefficients w = unit_triangle(0.05f);
  const std::array<glm::vec3, 3> p = apply(glm::mat3(1.f), 0.05f);
  std::array<glm::vec3, 3> v = {glm::vec3(0.f), glm::vec3(0.1f, 0.f, 0.f), glm::vec3(0.f, -0.05f, 0.f)};
  WeaveTriangleResult r;
  weave_triangle(w, p, v, law, true, r);
  // at the rest shape the forces are linear in v: F_0 = D_01 v_1 + D_02 v_2 (v_0 = 0)
  const glm::vec3 expect = r.damping[0] * v[1] + r.damping[2] * v[2];
  for (int c = 0; c < 3; ++c) CHECK(r.force[0][c] == doctest::Approx(expect[c]).epsilon(1e-4).scale(1e-6));
  CHECK(r.force[0].x > 0.f);  // vertex 1 moving away along the weft drags vertex 0 along
}

TEST_CASE("UV-derived weave frames") {
  const std::array<glm::vec3, 3> p = {glm::vec3(0, 0, 0), glm::vec3(0, 0, 0.2f), glm::vec3(0, 0.1f, 0)};
  SUBCASE("the weft follows dP/du: u along +z here, whatever the uv scale") {
    const std::array<glm::vec2, 3> uv = {glm::vec2(0.5f, 0.5f), glm::vec2(0.9f, 0.5f), glm::vec2(0.5f, 0.6f)};
    const auto c = weave_frame_coordinates(p, uv, 0.f);
    CHECK(c[1].x == doctest::Approx(0.2f));  // metres from the 3D rest shape, not uv units
    CHECK(c[1].y == doctest::Approx(0.f).scale(1));
    CHECK(std::fabs(c[2].y) == doctest::Approx(0.1f));
    WeaveCoefficients w;
    REQUIRE(weave_coefficients(c[0], c[1], c[2], w));
    CHECK(w.area == doctest::Approx(0.01f));
  }
  SUBCASE("u along the mesh's y axis gives the weft along y") {
    const std::array<glm::vec2, 3> uv = {glm::vec2(0, 0), glm::vec2(0, 1), glm::vec2(2, 0)};
    const auto c = weave_frame_coordinates(p, uv, 0.f);
    CHECK(c[2].x == doctest::Approx(0.1f));
    CHECK(c[2].y == doctest::Approx(0.f).scale(1));
  }
  SUBCASE("a rotated weave turns the coordinates") {
    const std::array<glm::vec2, 3> uv = {glm::vec2(0, 0), glm::vec2(1, 0), glm::vec2(0, 1)};
    const auto c = weave_frame_coordinates(p, uv, glm::radians(90.f));
    CHECK(std::fabs(c[1].x) == doctest::Approx(0.f).scale(1));
    CHECK(std::fabs(c[1].y) == doctest::Approx(0.2f));
  }
  SUBCASE("degenerate uv falls back to the projected axis") {
    const std::array<glm::vec2, 3> uv = {glm::vec2(0, 0), glm::vec2(0, 0), glm::vec2(0, 0)};
    const auto c = weave_frame_coordinates(p, uv, 0.f, glm::vec3(0, 1, 0));
    CHECK(c[2].x == doctest::Approx(0.1f));
  }
}

TEST_CASE("hinge angle: sign, value and gradient") {
  const float a = 0.4f;
  // flat edge along x, wings folded up toward the +z normal by a each: theta = 2a (positive: toward normal)
  const std::array<glm::vec3, 4> x = {glm::vec3(0, 0, 0), glm::vec3(1, 0, 0), glm::vec3(0.5f, std::cos(a), std::sin(a)),
                                      glm::vec3(0.4f, -std::cos(a), std::sin(a))};
  const HingeAngle h = hinge_angle(x);
  REQUIRE(h.valid);
  CHECK(h.theta == doctest::Approx(2 * a));
  const float d = 1e-3f;
  for (int k = 0; k < 4; ++k)
    for (int c = 0; c < 3; ++c) {
      auto p = x, m = x;
      p[k][c] += d;
      m[k][c] -= d;
      const float fd = (hinge_angle(p).theta - hinge_angle(m).theta) / (2 * d);
      CHECK(h.grad[k][c] == doctest::Approx(fd).epsilon(1e-2).scale(1e-2));
    }
  auto flat = x;
  flat[2] = glm::vec3(0.5f, 1, 0);
  flat[3] = glm::vec3(0.5f, -1, 0);
  CHECK(hinge_angle(flat).theta == doctest::Approx(0.f).scale(1));
}
