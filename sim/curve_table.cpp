#include "sim/curve_table.h"

namespace weft {

CurveTable make_curve_table(const StressCurve& curve) {
  CurveTable t;
  const auto &x = curve.strains(), &y = curve.stresses(), &m = curve.slopes();
  const size_t n = x.size();
  if (n < 2 || n >= size_t(CurveTable::kPieces)) return t;
  t.fits = true;
  t.knots = int(n);
  for (size_t k = 0; k < n; ++k) t.knot[k] = x[k];
  // below the first knot and beyond the last: the linear extensions of StressCurve
  t.base[0] = x[0], t.c0[0] = y[0], t.c1[0] = m[0];
  t.base[n] = x[n - 1], t.c0[n] = y[n - 1], t.c1[n] = m[n - 1];
  // the cubic Hermite on [x_k, x_k+1] expanded in t = e - x_k (coefficients in double, then rounded)
  for (size_t k = 0; k + 1 < n; ++k) {
    const double dx = double(x[k + 1]) - x[k], secant = (double(y[k + 1]) - y[k]) / dx;
    const size_t p = k + 1;
    t.base[p] = x[k];
    t.c0[p] = y[k];
    t.c1[p] = m[k];
    t.c2[p] = float((3 * secant - 2 * double(m[k]) - m[k + 1]) / dx);
    t.c3[p] = float((double(m[k]) + m[k + 1] - 2 * secant) / (dx * dx));
  }
  for (int p = 0; p < CurveTable::kPieces; ++p) {
    t.d1[p] = 2.f * t.c2[p];
    t.d2[p] = 3.f * t.c3[p];
  }
  return t;
}

CurveSample evaluate(const CurveTable& table, float e) {
  int p = 0;
  for (int k = 0; k < table.knots; ++k) p += e >= table.knot[k];
  const float t = e - table.base[p];
  return {table.c0[p] + t * (table.c1[p] + t * (table.c2[p] + t * table.c3[p])),
          table.c1[p] + t * (table.d1[p] + t * table.d2[p])};
}

}  // namespace weft
