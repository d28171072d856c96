#pragma once
// A StressCurve rewritten for the vectorised weave pass (weft_warp_simd.h): every piece, including the two
// linear extensions, as a cubic in t = e - base, so that 8 strains are evaluated with one compare per knot
// (the piece index), one in-register table lookup per coefficient and a Horner polynomial. Same curve as
// StressCurve::operator() to float rounding (that one evaluates the Hermite form in double).
#include <array>

#include "sim/stress_curve.h"

namespace weft {

struct CurveTable {
  static constexpr int kPieces = 8;  // one AVX2 register per coefficient: at most 7 knots
  bool fits = false;                 // false: more knots than that (the pass evaluates the curve per lane)
  int knots = 0;
  std::array<float, kPieces> knot{};  // strains of the knots (knots of them)
  // Piece p covers [knot[p-1], knot[p]): 0 lies below the first knot, `knots` beyond the last.
  // stress = c0 + t (c1 + t (c2 + t c3)), slope = c1 + t (d1 + t d2), t = e - base (kPieces each)
  std::array<float, kPieces> base{}, c0{}, c1{}, c2{}, c3{}, d1{}, d2{};
};

CurveTable make_curve_table(const StressCurve& curve);

// One strain through the table (what each lane of the vectorised pass computes), for tests.
CurveSample evaluate(const CurveTable& table, float e);

}  // namespace weft
