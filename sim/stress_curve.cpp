#include "sim/stress_curve.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace weft {
namespace {

// Cubic Hermite on [x0, x1] with values y0, y1 and slopes m0, m1, at parameter s = (x - x0) / dx.
struct Hermite {
  double x0, dx, y0, y1, m0, m1;
  double value(double s) const {
    const double s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * y0 + (s3 - 2 * s2 + s) * dx * m0 + (-2 * s3 + 3 * s2) * y1 + (s3 - s2) * dx * m1;
  }
  double slope(double s) const {
    const double s2 = s * s;
    return ((6 * s2 - 6 * s) * y0 + (-6 * s2 + 6 * s) * y1) / dx + (3 * s2 - 4 * s + 1) * m0 + (3 * s2 - 2 * s) * m1;
  }
  // integral of the value from x0 to x0 + s dx
  double integral(double s) const {
    const double s2 = s * s, s3 = s2 * s, s4 = s3 * s;
    return dx * ((0.5 * s4 - s3 + s) * y0 + (0.25 * s4 - 2.0 / 3 * s3 + 0.5 * s2) * dx * m0 +
                 (-0.5 * s4 + s3) * y1 + (0.25 * s4 - 1.0 / 3 * s3) * dx * m1);
  }
};

}  // namespace

std::string check_curve_points(const std::vector<float>& strain, const std::vector<float>& stress) {
  if (strain.size() != stress.size()) return "strain and stress lists differ in length";
  if (strain.size() < 2) return "a curve needs at least 2 points";
  bool has_zero = false;
  for (size_t k = 0; k < strain.size(); ++k) {
    if (!std::isfinite(strain[k]) || !std::isfinite(stress[k])) return "curve points must be finite";
    if (k > 0 && !(strain[k] > strain[k - 1])) return "curve strains must increase strictly";
    if (k > 0 && stress[k] < stress[k - 1]) return "curve stresses must not decrease (monotone material)";
    if (strain[k] == 0.f) has_zero = stress[k] == 0.f;
  }
  if (!has_zero) return "the curve must pass through (0, 0): the rest state carries no stress";
  return {};
}

StressCurve StressCurve::linear(float k) { return from_points({-1.f, 0.f, 1.f}, {-k, 0.f, k}); }

StressCurve StressCurve::from_points(std::vector<float> strain, std::vector<float> stress) {
  if (auto err = check_curve_points(strain, stress); !err.empty()) throw std::invalid_argument(err);
  StressCurve c;
  const size_t n = strain.size();
  c.strain_ = std::move(strain);
  c.stress_ = std::move(stress);
  // Fritsch-Carlson monotone slopes: secant averages, zero at flat segments and local extrema, then
  // limited so that alpha^2 + beta^2 <= 9 on each segment (no overshoot).
  std::vector<double> secant(n - 1);
  for (size_t k = 0; k + 1 < n; ++k)
    secant[k] = double(c.stress_[k + 1] - c.stress_[k]) / double(c.strain_[k + 1] - c.strain_[k]);
  std::vector<double> m(n);
  m[0] = secant[0];
  m[n - 1] = secant[n - 2];
  for (size_t k = 1; k + 1 < n; ++k)
    m[k] = secant[k - 1] * secant[k] <= 0 ? 0.0 : 0.5 * (secant[k - 1] + secant[k]);
  for (size_t k = 0; k + 1 < n; ++k) {
    if (secant[k] == 0) {
      m[k] = m[k + 1] = 0;
      continue;
    }
    const double a = m[k] / secant[k], b = m[k + 1] / secant[k], r = a * a + b * b;
    if (r > 9) {
      const double t = 3 / std::sqrt(r);
      m[k] = t * a * secant[k];
      m[k + 1] = t * b * secant[k];
    }
  }
  c.slope_.assign(m.begin(), m.end());
  for (size_t k = 0; k < n; ++k)
    if (c.strain_[k] == 0.f) c.zero_knot_ = k;
  // energy at each knot, integrated outwards from the zero knot
  c.energy_at_.assign(n, 0.0);
  for (size_t k = c.zero_knot_; k + 1 < n; ++k) {
    const Hermite seg{c.strain_[k], double(c.strain_[k + 1]) - c.strain_[k], c.stress_[k], c.stress_[k + 1], m[k], m[k + 1]};
    c.energy_at_[k + 1] = c.energy_at_[k] + seg.integral(1.0);
  }
  for (size_t k = c.zero_knot_; k > 0; --k) {
    const Hermite seg{c.strain_[k - 1], double(c.strain_[k]) - c.strain_[k - 1], c.stress_[k - 1], c.stress_[k], m[k - 1], m[k]};
    c.energy_at_[k - 1] = c.energy_at_[k] - seg.integral(1.0);
  }
  return c;
}

CurveSample StressCurve::operator()(float e) const {
  if (strain_.empty()) return {};
  const size_t n = strain_.size();
  if (e <= strain_[0]) return {stress_[0] + slope_[0] * (e - strain_[0]), slope_[0]};
  if (e >= strain_[n - 1]) return {stress_[n - 1] + slope_[n - 1] * (e - strain_[n - 1]), slope_[n - 1]};
  const size_t k = size_t(std::upper_bound(strain_.begin(), strain_.end(), e) - strain_.begin()) - 1;
  const Hermite seg{strain_[k], double(strain_[k + 1]) - strain_[k], stress_[k], stress_[k + 1], slope_[k], slope_[k + 1]};
  const double s = (double(e) - seg.x0) / seg.dx;
  return {float(seg.value(s)), float(seg.slope(s))};
}

double StressCurve::energy(float e) const {
  if (strain_.empty()) return 0;
  const size_t n = strain_.size();
  auto outside = [&](size_t k, double d) {  // linear extension beyond knot k by d
    return energy_at_[k] + double(stress_[k]) * d + 0.5 * double(slope_[k]) * d * d;
  };
  if (e <= strain_[0]) return outside(0, double(e) - strain_[0]);
  if (e >= strain_[n - 1]) return outside(n - 1, double(e) - strain_[n - 1]);
  const size_t k = size_t(std::upper_bound(strain_.begin(), strain_.end(), e) - strain_.begin()) - 1;
  const Hermite seg{strain_[k], double(strain_[k + 1]) - strain_[k], stress_[k], stress_[k + 1], slope_[k], slope_[k + 1]};
  return energy_at_[k] + seg.integral((double(e) - seg.x0) / seg.dx);
}

StressCurve StressCurve::scaled(float s) const {
  if (strain_.empty()) return *this;
  std::vector<float> y = stress_;
  for (float& v : y) v *= s;
  return from_points(strain_, y);
}

}  // namespace weft
