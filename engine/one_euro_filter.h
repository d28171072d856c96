#pragma once
// The One Euro filter (Casiez, Roussel & Vogel, CHI 2012): an exponential low-pass whose cutoff rises
// with speed, so a still hand is smoothed hard (little jitter) and a fast hand barely lags.
//   alpha(fc, dt) = 1 / (1 + tau / dt),  tau = 1 / (2 pi fc)           (eq. 2 of the paper, rearranged)
//   dx_hat = lowpass(dx, alpha(d_cutoff)),  fc = min_cutoff + beta |dx_hat|,  x_hat = lowpass(x, alpha(fc))
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace weft {

struct OneEuroParams {
  bool enabled = false;
  double min_cutoff_hz = 1.0;  // cutoff at rest, Hz: lower = smoother still hand
  double beta = 0.5;           // cutoff increase per unit speed (m/s or rad/s): higher = less lag
  double d_cutoff_hz = 1.0;    // cutoff of the speed estimate, Hz
};

// The smoothing factor of a first-order low-pass of cutoff fc sampled every dt.
double one_euro_alpha(double cutoff_hz, double dt);

// Filters a position and an orientation (the quaternion as a 4-vector on the hemisphere of the last
// output, renormalised) of one device.
class OneEuroFilter {
 public:
  void reset() { initialised_ = false; }
  // dt > 0: time since the previous call. The first call passes the sample through.
  void filter(glm::vec3& position, glm::quat& orientation, double dt, const OneEuroParams& params);

 private:
  bool initialised_ = false;
  glm::vec3 x_{0.f}, dx_{0.f};
  glm::vec4 q_{0.f}, dq_{0.f};
};

}  // namespace weft
