#include "engine/one_euro_filter.h"

#include <cmath>

namespace weft {

double one_euro_alpha(double cutoff_hz, double dt) {
  const double tau = 1.0 / (2.0 * 3.141592653589793 * cutoff_hz);
  return 1.0 / (1.0 + tau / dt);
}

void OneEuroFilter::filter(glm::vec3& position, glm::quat& orientation, double dt, const OneEuroParams& p) {
  glm::vec4 q(orientation.w, orientation.x, orientation.y, orientation.z);
  if (!initialised_ || !(dt > 0)) {
    if (!initialised_) {
      x_ = position, q_ = q;
      dx_ = glm::vec3(0.f), dq_ = glm::vec4(0.f);
      initialised_ = true;
    }
    position = x_;
    orientation = glm::quat(q_.x, q_.y, q_.z, q_.w);
    return;
  }
  if (glm::dot(q, q_) < 0.f) q = -q;  // same hemisphere as the last output: q and -q are one rotation
  const float ad = float(one_euro_alpha(p.d_cutoff_hz, dt));
  dx_ += ad * ((position - x_) / float(dt) - dx_);
  dq_ += ad * ((q - q_) / float(dt) - dq_);
  const float ax = float(one_euro_alpha(p.min_cutoff_hz + p.beta * glm::length(dx_), dt));
  const float aq = float(one_euro_alpha(p.min_cutoff_hz + p.beta * 2.0 * glm::length(dq_), dt));  // |dq| ~ w / 2
  x_ += ax * (position - x_);
  q_ = glm::normalize(q_ + aq * (q - q_));
  position = x_;
  orientation = glm::quat(q_.x, q_.y, q_.z, q_.w);
}

}  // namespace weft
