#pragma once
// Seeded random numbers for noise injection that give the same sequence on every standard library:
// std::mt19937_64's raw output is fixed by the C++ standard, but std::uniform_real_distribution and
// std::normal_distribution are not, so the distributions are implemented here from the raw bits.
#include <cmath>
#include <cstdint>
#include <random>

#include <glm/glm.hpp>

namespace weft {

class NoiseRng {
 public:
  explicit NoiseRng(uint64_t seed = 0) : engine_(seed) {}
  void seed(uint64_t s) { engine_.seed(s); has_spare_ = false; }

  uint64_t bits() { return engine_(); }
  // Uniform in [0, 1): the top 53 bits scaled by 2^-53.
  double uniform() { return double(engine_() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return p > 0 && uniform() < p; }
  // Standard normal by the Box-Muller transform (Box & Muller 1958); the second value is kept.
  double gaussian() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = 1.0 - uniform();  // (0, 1]: log is finite
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double a = 6.283185307179586 * u2;
    spare_ = r * std::sin(a);
    has_spare_ = true;
    return r * std::cos(a);
  }
  glm::vec3 gaussian3(double sigma) {
    const double x = gaussian(), y = gaussian(), z = gaussian();
    return glm::vec3(float(sigma * x), float(sigma * y), float(sigma * z));
  }
  // Uniform on the unit sphere (normalised Gaussian vector).
  glm::vec3 unit_vector() {
    for (;;) {
      const glm::vec3 g = gaussian3(1.0);
      const float n = glm::length(g);
      if (n > 1e-6f) return g / n;
    }
  }

 private:
  std::mt19937_64 engine_;
  double spare_ = 0;
  bool has_spare_ = false;
};

}  // namespace weft
