#pragma once
// Fixed-size log-binned histogram of durations, for percentiles on a real-time path: record() and
// percentile() never allocate, and memory does not grow with the number of samples. Bins are 2.5%
// wide from 0.1 us to ~10 s; percentile() returns the bin's upper edge (an upper bound within 2.5%).
#include <array>
#include <cmath>
#include <cstdint>

namespace weft {

class LatencyHistogram {
 public:
  static constexpr double kMinMs = 1e-4;   // 0.1 us: everything below lands in bin 0
  static constexpr double kRatio = 1.025;  // bin width
  static constexpr int kBins = 750;        // kMinMs * kRatio^750 ~ 1.1e4 ms

  void record(double ms) {
    ++count_;
    if (ms > max_) max_ = ms;
    ++bins_[size_t(bin_of(ms))];
  }
  void clear() { *this = LatencyHistogram(); }

  uint64_t count() const { return count_; }
  double max() const { return max_; }
  // Smallest bin upper edge below which at least fraction q (0..1) of the samples lie; 0 when empty.
  double percentile(double q) const {
    if (count_ == 0) return 0;
    const double target = q * double(count_);
    uint64_t seen = 0;
    for (int i = 0; i < kBins; ++i) {
      seen += bins_[size_t(i)];
      if (double(seen) >= target && seen > 0) return std::fmin(upper_edge(i), max_);
    }
    return max_;
  }

  static int bin_of(double ms) {
    if (!(ms > kMinMs)) return 0;
    const int b = int(std::log(ms / kMinMs) / std::log(kRatio)) + 1;
    return b < kBins ? b : kBins - 1;
  }
  static double upper_edge(int bin) { return kMinMs * std::pow(kRatio, bin); }

 private:
  std::array<uint64_t, kBins> bins_{};
  uint64_t count_ = 0;
  double max_ = 0;
};

}  // namespace weft
