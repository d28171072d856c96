// The Chebyshev solve's shared pieces (gpu/gpu_chebyshev.h): where chebyshev_bound.comp and
// chebyshev_reduce.comp leave the ends of the spectrum's interval in the step's scalars (zeroed each tick with
// the first 16), and the damping and weights chebyshev.comp makes from them; every invocation makes the same
// from the same two scalars.
const uint kChebyS = 12;  // largest Gershgorin row sum s of P^1/2 W P^1/2's off-diagonal blocks: hi = 1 + s
const uint kChebyA = 13;  // the lower end: the Rayleigh quotient of a uniform translation
const uint kChebyE = 14;  // the links' bound, less 1: max_i lambda_max(P_i E_i) - 1 (chebyshev_bound.comp)

// gamma centres the damped Jacobi iteration x += gamma P r on [lo, hi] (hi = 1 + s >= lambda_max: a bound;
// lo >= lambda_min: an estimate, see chebyshev_bound.comp); rho is the iteration's radius on that interval.
void cheby_interval(float s, float lo, out float gamma, out float rho) {
  float hi = 1.0 + s;
  lo = clamp(lo, 0.0, 1.0);
  gamma = 2.0 / (lo + hi);
  rho = (hi - lo) / (hi + lo);
}

// Wang 2015's weights (Eq. 12: omega_1 = 1, omega_2 = 2 / (2 - rho^2), omega_{k+1} = 4 / (4 - rho^2 omega_k)) in
// closed form, so that no iteration waits on the one before for its weight: omega_k = 2 T_{k-1}(1/rho) /
// (rho T_k(1/rho)) = 2 / (1 + sigma) (1 + q^{k-1}) / (1 + q^k), sigma = sqrt(1 - rho^2), q = (rho / (1 + sigma))^2.
float cheby_omega(uint k, float rho) {
  if (k <= 1u) return 1.0;
  float sigma = sqrt(max((1.0 - rho) * (1.0 + rho), 0.0));
  float e = rho / (1.0 + sigma);
  float q = e * e;
  float qk1 = pow(q, float(k - 1u)), qk = qk1 * q;
  return 2.0 / (1.0 + sigma) * (1.0 + qk1) / (1.0 + qk);
}
