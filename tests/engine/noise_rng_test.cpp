#include <doctest/doctest.h>

#include <cmath>

#include "engine/noise_rng.h"

namespace weft {

TEST_CASE("noise rng: the raw engine is the standard's mt19937_64") {
  NoiseRng rng(5489u);  // the default seed; the standard fixes its 10000th output
  uint64_t v = 0;
  for (int i = 0; i < 10000; ++i) v = rng.bits();
  CHECK(v == 9981545732273789042ull);
}

TEST_CASE("noise rng: uniform in [0, 1) and Gaussian with mean 0, variance 1") {
  NoiseRng rng(7);
  double sum = 0, sum2 = 0, umin = 1, umax = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform();
    umin = std::min(umin, u), umax = std::max(umax, u);
    const double g = rng.gaussian();
    sum += g, sum2 += g * g;
  }
  CHECK(umin >= 0.0);
  CHECK(umax < 1.0);
  CHECK(std::abs(sum / n) < 0.01);
  CHECK(std::abs(sum2 / n - 1.0) < 0.02);
  NoiseRng a(3), b(3);
  for (int i = 0; i < 100; ++i) CHECK(a.gaussian() == b.gaussian());
  const glm::vec3 u = rng.unit_vector();
  CHECK(glm::length(u) == doctest::Approx(1.0).epsilon(1e-5));
}

}  // namespace weft
