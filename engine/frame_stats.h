#pragma once
// What a front end measures about its own frames, the same in every mode: frame-to-frame time and how
// old the drawn cloth is (the runtime clock when the frame starts drawing minus the sim time drawn: the
// latency the snapshot exchange and interpolation add; the draw's own time comes on top).
#include <chrono>
#include <cstdint>

#include "engine/latency_histogram.h"

namespace weft {

struct FrameStats {
  uint64_t frames = 0;
  LatencyHistogram frame_ms;   // time between consecutive frames, ms
  LatencyHistogram lag_ms;     // runtime clock at draw minus the drawn sim time, ms
  double wall_s = 0;           // from the first frame to the last

  // Call once per frame, after it was drawn (or submitted).
  void frame_done(double lag) {
    const auto now = std::chrono::steady_clock::now();
    if (frames > 0) frame_ms.record(std::chrono::duration<double, std::milli>(now - last_).count());
    else first_ = now;
    last_ = now;
    ++frames;
    wall_s = std::chrono::duration<double>(now - first_).count();
    if (lag >= 0) lag_ms.record(lag * 1e3);
  }

 private:
  std::chrono::steady_clock::time_point first_, last_;
};

}  // namespace weft
