#pragma once
// What a user needs to judge a session or a replayed stream, measured on the sim thread after every
// tick: how far the cloth stretched (max and p99 over every structural edge of every tick), how much
// kinetic energy it carried and how fast its fastest vertex went. Fixed-size state: observe() never
// allocates, so it runs on the tick path.
#include <array>
#include <cstdint>

#include "sim/cloth_model.h"
#include "sim/cloth_state.h"

namespace weft {

struct StreamMetrics {
  double edge_strain_max = 0;      // largest l / l0 - 1 of any structural edge at any tick
  double edge_strain_p99 = 0;      // 99th percentile of l / l0 - 1 over all (edge, tick) pairs (0.1 % bins)
  double edge_strain_end = 0;      // largest l / l0 - 1 at the last tick observed (how the session ends)
  double kinetic_energy_peak = 0;  // J, largest sum of m |v|^2 / 2 at any tick
  double vertex_speed_peak = 0;    // m/s, fastest vertex at any tick
  double height_span_end = 0;      // m, highest minus lowest vertex at the last tick (flat on a table: ~0)
  uint64_t nonfinite_ticks = 0;    // ticks that ended with a non-finite position or velocity
  uint64_t ticks = 0;              // ticks observed
};

class StreamMeter {
 public:
  static constexpr int kBins = 1000;         // strain bins of 0.1 % from 0 to 100 %; above: the last bin
  static constexpr double kBinWidth = 1e-3;

  void observe(const ClothModel& model, const ClothState& state);
  StreamMetrics summary() const;
  void clear() { *this = StreamMeter(); }

 private:
  std::array<uint64_t, kBins> strain_bins_{};
  uint64_t samples_ = 0;
  StreamMetrics m_;
};

}  // namespace weft
