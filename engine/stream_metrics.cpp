#include "engine/stream_metrics.h"

#include <algorithm>
#include <cmath>

namespace weft {

void StreamMeter::observe(const ClothModel& model, const ClothState& state) {
  const glm::vec3* x = state.position.data();
  const glm::vec3* v = state.velocity.data();
  const size_t n = model.vertex_count();
  double energy = 0;
  float speed2 = 0;
  float y_min = n > 0 ? x[0].y : 0.f, y_max = y_min;
  bool finite = true;
  for (size_t i = 0; i < n; ++i) {
    y_min = std::min(y_min, x[i].y);
    y_max = std::max(y_max, x[i].y);
    const float s2 = glm::dot(v[i], v[i]);
    finite = finite && std::isfinite(s2) && std::isfinite(x[i].x + x[i].y + x[i].z);
    energy += 0.5 * double(model.mass[i]) * double(s2);
    speed2 = std::max(speed2, s2);
  }
  float worst = 0;
  for (size_t e = 0; e < model.edge_count; ++e) {
    const float l = glm::length(x[model.link_first[e]] - x[model.link_second[e]]);
    float strain = l / model.rest_length[e] - 1.f;
    if (!(strain > 0.f)) strain = 0.f;       // compressed, or NaN (counted below as a non-finite tick)
    if (!(strain < 1e3f)) strain = 1e3f;     // Inf: keep the bin index finite
    worst = std::max(worst, strain);
    const int bin = std::min(int(double(strain) / kBinWidth), kBins - 1);
    ++strain_bins_[size_t(bin)];
  }
  samples_ += model.edge_count;
  ++m_.ticks;
  if (!finite) {
    ++m_.nonfinite_ticks;
    return;  // a non-finite tick must not poison the peaks
  }
  m_.edge_strain_max = std::max(m_.edge_strain_max, double(worst));
  m_.edge_strain_end = double(worst);
  m_.height_span_end = double(y_max - y_min);
  m_.kinetic_energy_peak = std::max(m_.kinetic_energy_peak, energy);
  m_.vertex_speed_peak = std::max(m_.vertex_speed_peak, double(std::sqrt(speed2)));
}

StreamMetrics StreamMeter::summary() const {
  StreamMetrics out = m_;
  if (samples_ == 0) return out;
  const double target = 0.99 * double(samples_);
  uint64_t seen = 0;
  for (int b = 0; b < kBins; ++b) {
    seen += strain_bins_[size_t(b)];
    if (double(seen) >= target) {
      out.edge_strain_p99 = std::min(double(b + 1) * kBinWidth, out.edge_strain_max);
      break;
    }
  }
  return out;
}

}  // namespace weft
