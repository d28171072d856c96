#include "sim/strain_limit.h"

#include <algorithm>

namespace weft {

float strain_excess(float length, float rest_length, float max_strain) {
  return std::max(0.f, length - (1.f + max_strain) * rest_length);
}

void limit_strain(const ClothModel& model, const uint8_t* kinematic, const StrainLimitParams& params, glm::vec3* x, glm::vec3* v, StrainLimitStats& stats) {
  stats = {};
  if (!params.enabled) return;
  const auto* link = model.link.data();
  const float* l0 = model.rest_length.data();
  const float* inv_mass = model.inv_mass.data();
  const float stretch = 1.f + params.max_strain;
  const float detect = stretch + 1e-3f;  // small hysteresis so rounding does not keep edges "over"
  for (int sweep = 0; sweep < params.iterations; ++sweep) {
    uint32_t corrected = 0;
    // Sweeps alternate direction (symmetric Gauss-Seidel): a correction then travels the whole length of
    // a chain hanging from a held vertex in one sweep, whichever way the edges are numbered.
    const bool forward = sweep % 2 == 0;
    for (size_t k = 0; k < model.edge_count; ++k) {
      const size_t e = forward ? k : model.edge_count - 1 - k;
      const uint32_t i = link[e][0], j = link[e][1];
      const glm::vec3 d = x[j] - x[i];
      const float lmax = stretch * l0[e], ldetect = detect * l0[e];
      const float len2 = glm::dot(d, d);
      if (len2 <= ldetect * ldetect) continue;  // the common case: no square root
      const float wi = kinematic[i] ? 0.f : inv_mass[i], wj = kinematic[j] ? 0.f : inv_mass[j];
      const float w = wi + wj;
      if (w == 0.f) continue;
      const float len = std::sqrt(len2);
      const glm::vec3 u = d / len;
      const float s = (len - lmax) / w;
      x[i] += (s * wi) * u;
      x[j] -= (s * wj) * u;
      // remove the relative velocity that stretches the edge further (momentum kept)
      const float vrel = glm::dot(v[j] - v[i], u);
      if (vrel > 0.f) {
        v[i] += (vrel * wi / w) * u;
        v[j] -= (vrel * wj / w) * u;
      }
      ++corrected;
    }
    stats.sweeps = sweep + 1;
    stats.corrected += corrected;
    if (corrected == 0) break;
  }
}

float max_edge_strain(const ClothModel& model, const glm::vec3* x) {
  float worst = -1.f;
  for (size_t e = 0; e < model.edge_count; ++e) {
    const float len = glm::length(x[model.link[e][1]] - x[model.link[e][0]]);
    worst = std::max(worst, len / model.rest_length[e] - 1.f);
  }
  return worst;
}

}  // namespace weft
