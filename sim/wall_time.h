#pragma once
// Wall time between two points of a step, for the timings the step reports (never for its physics).
#include <chrono>

namespace weft {

using WallClock = std::chrono::steady_clock;
inline double ms_between(WallClock::time_point a, WallClock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace weft
