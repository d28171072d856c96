#pragma once
// Fixed-tick schedule on absolute deadlines (integer nanoseconds of a steady clock): deadline k is
// origin + k * period, computed, never accumulated, so ticks do not drift. A wake runs every tick due
// by then, at most max_catch_up of them; older due ticks are skipped and counted, so a slow step
// cannot make the loop spiral. Pure arithmetic on the times it is given: testable with a fake clock.
#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace weft {

class TickScheduler {
 public:
  struct Wake {
    uint64_t run = 0;                // ticks to run now
    uint64_t skipped = 0;            // due ticks dropped by the catch-up bound
    int64_t first_deadline_ns = 0;   // deadline of the first tick to run; tick j's is this + j * period
  };

  TickScheduler(int64_t period_ns, uint64_t max_catch_up) : period_(period_ns), max_catch_up_(max_catch_up) {
    if (period_ns <= 0) throw std::invalid_argument("tick period must be positive");
    if (max_catch_up == 0) throw std::invalid_argument("max_catch_up must be at least 1");
  }

  // Starts (or restarts after a pause) the schedule: the first tick is due at now_ns.
  void rebase(int64_t now_ns) {
    origin_ = now_ns;
    next_ = 0;
  }
  int64_t period_ns() const { return period_; }
  int64_t next_deadline_ns() const { return origin_ + int64_t(next_) * period_; }
  uint64_t skipped_total() const { return skipped_total_; }

  Wake on_wake(int64_t now_ns) {
    Wake w;
    const int64_t first_due = next_deadline_ns();
    if (now_ns < first_due) return w;
    const uint64_t due = uint64_t((now_ns - first_due) / period_) + 1;
    w.run = std::min(due, max_catch_up_);
    w.skipped = due - w.run;
    // Skip the oldest due ticks: the ones run are the most recent deadlines.
    w.first_deadline_ns = origin_ + int64_t(next_ + w.skipped) * period_;
    next_ += due;
    skipped_total_ += w.skipped;
    return w;
  }

 private:
  int64_t period_;
  uint64_t max_catch_up_;
  int64_t origin_ = 0;
  uint64_t next_ = 0;  // index of the next deadline not yet consumed
  uint64_t skipped_total_ = 0;
};

}  // namespace weft
