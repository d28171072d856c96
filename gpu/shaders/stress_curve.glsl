// The weft/warp model's stress curves (force_layout.glsl's curves, fp.curve_off and curve_n), shared by the
// weft/warp and the isotropic membrane kernels.
// StressCurve::operator(): monotone Hermite between knots, linear beyond the ends. (stress, slope)
vec2 curve(uint c, float e) {
  uint o = fp.curve_off[c], n = fp.curve_n[c];
  if (n == 0u) return vec2(0.0);
  if (e <= curves[o]) return vec2(curves[o + n] + curves[o + 2 * n] * (e - curves[o]), curves[o + 2 * n]);
  if (e >= curves[o + n - 1]) {
    uint z = o + n - 1;
    return vec2(curves[z + n] + curves[z + 2 * n] * (e - curves[z]), curves[z + 2 * n]);
  }
  uint k = 0;
  while (k + 2 < n && curves[o + k + 1] <= e) ++k;  // upper_bound - 1
  float x0 = curves[o + k], dx = curves[o + k + 1] - x0;
  float y0 = curves[o + n + k], y1 = curves[o + n + k + 1], m0 = curves[o + 2 * n + k], m1 = curves[o + 2 * n + k + 1];
  float s = (e - x0) / dx, s2 = s * s, s3 = s2 * s;
  float value = (2 * s3 - 3 * s2 + 1) * y0 + (s3 - 2 * s2 + s) * dx * m0 + (-2 * s3 + 3 * s2) * y1 + (s3 - s2) * dx * m1;
  float slope = ((6 * s2 - 6 * s) * y0 + (-6 * s2 + 6 * s) * y1) / dx + (3 * s2 - 4 * s + 1) * m0 + (3 * s2 - 2 * s) * m1;
  return vec2(value, slope);
}
