#include "lab/plausibility.h"

#include <cmath>

namespace weft::lab {

Plausibility compare_motion(const glm::vec3* dref, const glm::vec3* dexp, size_t n, const uint8_t* skip,
                            double min_motion) {
  Plausibility out;
  double e_sum = 0, s_sum = 0;
  for (size_t i = 0; i < n; ++i) {
    if (skip && skip[i]) continue;
    const glm::dvec3 r(dref[i]), x(dexp[i]);
    const double r2 = glm::dot(r, r);
    if (r2 <= min_motion * min_motion) continue;
    const glm::dvec3 diff = r - x;
    e_sum += glm::dot(diff, diff) / r2;  // Eq. 35
    const double x_len = glm::length(x);
    const double c = x_len > 0 ? glm::dot(r, x) / (std::sqrt(r2) * x_len) : 0.0;
    s_sum += c * c;  // Eq. 37
    ++out.counted;
  }
  if (out.counted) {
    out.error = e_sum / double(out.counted);  // Eq. 36
    out.similarity = s_sum / double(out.counted);
  }
  return out;
}

}  // namespace weft::lab
