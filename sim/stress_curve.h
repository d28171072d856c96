#pragma once
// A nonlinear strain-stress curve of one weave direction (Volino & Thalmann 2005 sec. 2.1): a monotone
// piecewise cubic through measured points (Fritsch-Carlson slopes, so it never overshoots between
// points), extended linearly with the end slopes. Stress is a surface stress, N/m (force per unit width);
// strain is dimensionless. The analytic slope feeds the implicit Jacobian and the integral the energy.
#include <string>
#include <vector>

namespace weft {

struct CurveSample {
  float stress = 0;  // sigma(e), N/m
  float slope = 0;   // d sigma / d e, N/m
};

class StressCurve {
 public:
  StressCurve() = default;
  // A straight line sigma = k e through the origin (the linear material).
  static StressCurve linear(float k);
  // Points (strain, stress), strains strictly increasing, stresses non-decreasing, at least 2 points,
  // the curve passing through (0, 0). Throws std::invalid_argument naming the problem otherwise.
  static StressCurve from_points(std::vector<float> strain, std::vector<float> stress);

  CurveSample operator()(float e) const;
  // Integral of sigma from 0 to e (strain energy per unit rest area), J/m^2.
  double energy(float e) const;
  // The same curve with every stress multiplied by s (s >= 0).
  StressCurve scaled(float s) const;
  bool empty() const { return strain_.empty(); }
  float slope_at_zero() const { return (*this)(0.f).slope; }
  const std::vector<float>& strains() const { return strain_; }
  const std::vector<float>& stresses() const { return stress_; }
  const std::vector<float>& slopes() const { return slope_; }  // Hermite slopes at the knots, N/m

 private:
  std::vector<float> strain_, stress_, slope_;  // knots, values and Hermite slopes (npoint each)
  std::vector<double> energy_at_;               // integral from 0 to each knot (npoint)
  size_t zero_knot_ = 0;
};

// Empty string when the points make a valid curve, else the problem.
std::string check_curve_points(const std::vector<float>& strain, const std::vector<float>& stress);

}  // namespace weft
