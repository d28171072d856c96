#include <doctest/doctest.h>

#include <stdexcept>

#include "sim/stress_curve.h"

using namespace weft;

TEST_CASE("stress curve: passes through its points, monotone between them") {
  const StressCurve c = StressCurve::from_points({-0.1f, 0.f, 0.05f, 0.2f, 0.5f}, {-1.f, 0.f, 2.f, 30.f, 400.f});
  CHECK(c(0.f).stress == doctest::Approx(0.f));
  CHECK(c(0.05f).stress == doctest::Approx(2.f));
  CHECK(c(0.2f).stress == doctest::Approx(30.f));
  CHECK(c(0.5f).stress == doctest::Approx(400.f));
  float prev = c(-0.2f).stress;
  for (float e = -0.2f; e <= 0.7f; e += 0.001f) {
    const CurveSample s = c(e);
    CHECK(s.stress >= prev - 1e-4f);
    CHECK(s.slope >= 0.f);
    prev = s.stress;
  }
  // linear extension beyond the last point with the end slope
  const float end_slope = c(0.5f).slope;
  CHECK(c(0.6f).stress == doctest::Approx(400.f + 0.1f * end_slope).epsilon(1e-4));
}

TEST_CASE("stress curve: analytic slope and energy match finite differences") {
  const StressCurve c = StressCurve::from_points({-0.2f, 0.f, 0.1f, 0.3f, 0.6f}, {-3.f, 0.f, 5.f, 80.f, 900.f});
  for (float e : {-0.3f, -0.1f, 0.02f, 0.099f, 0.15f, 0.29f, 0.45f, 0.8f}) {
    const double d = 1e-3;
    const double fd_slope = (double(c(float(e + d)).stress) - c(float(e - d)).stress) / (2 * d);
    CHECK(c(e).slope == doctest::Approx(fd_slope).epsilon(2e-3).scale(1.0));
    const double fd_stress = (c.energy(float(e + d)) - c.energy(float(e - d))) / (2 * d);
    CHECK(c(e).stress == doctest::Approx(fd_stress).epsilon(2e-3).scale(1.0));
  }
  CHECK(c.energy(0.f) == doctest::Approx(0.0));
  CHECK(c.energy(-0.1f) > 0.0);  // compression stores energy too
}

TEST_CASE("stress curve: linear and scaled") {
  const StressCurve c = StressCurve::linear(100.f);
  CHECK(c(0.3f).stress == doctest::Approx(30.f));
  CHECK(c(-2.f).stress == doctest::Approx(-200.f));
  CHECK(c.energy(0.2f) == doctest::Approx(0.5 * 100 * 0.04));
  CHECK(c.scaled(0.5f)(0.3f).stress == doctest::Approx(15.f));
}

TEST_CASE("stress curve: bad points are rejected with a reason") {
  CHECK_THROWS_AS(StressCurve::from_points({0.f}, {0.f}), std::invalid_argument);
  CHECK_THROWS_AS(StressCurve::from_points({0.f, 0.1f, 0.05f}, {0.f, 1.f, 2.f}), std::invalid_argument);
  CHECK_THROWS_AS(StressCurve::from_points({0.f, 0.1f}, {0.f, -1.f}), std::invalid_argument);
  CHECK_THROWS_AS(StressCurve::from_points({0.1f, 0.2f}, {1.f, 2.f}), std::invalid_argument);  // no (0, 0)
  CHECK(!check_curve_points({0.f, 0.1f}, {0.f, 1.f}).size());
}
