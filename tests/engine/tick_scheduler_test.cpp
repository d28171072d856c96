#include "engine/tick_scheduler.h"

#include <doctest/doctest.h>

namespace weft {
namespace {

// A fake clock: times are given to the scheduler directly, so the accounting is checked by counts.
TEST_CASE("tick scheduler: one tick per deadline when on time without drift") {
  const int64_t period = 4'166'667;  // 240 Hz
  TickScheduler s(period, 4);
  s.rebase(1000);
  uint64_t ran = 0;
  for (int k = 0; k < 10000; ++k) {
    const int64_t wake = 1000 + int64_t(k) * period + 12'345;  // always a little late
    const auto w = s.on_wake(wake);
    CHECK(w.run == 1);
    CHECK(w.skipped == 0);
    CHECK(w.first_deadline_ns == 1000 + int64_t(k) * period);  // absolute, not accumulated
    ran += w.run;
  }
  CHECK(ran == 10000);
  CHECK(s.next_deadline_ns() == 1000 + 10000 * period);
}

TEST_CASE("tick scheduler: early wake runs nothing and late wake catches up within the bound skipping the rest") {
  TickScheduler s(1000, 4);
  s.rebase(0);
  CHECK(s.on_wake(0).run == 1);        // first tick due at once
  CHECK(s.on_wake(999).run == 0);      // deadline 1000 not reached
  auto w = s.on_wake(3500);            // deadlines 1000, 2000, 3000 due
  CHECK(w.run == 3);
  CHECK(w.skipped == 0);
  CHECK(w.first_deadline_ns == 1000);
  w = s.on_wake(10'000);               // 4000..10000: 7 due, 4 run, the 3 oldest skipped
  CHECK(w.run == 4);
  CHECK(w.skipped == 3);
  CHECK(w.first_deadline_ns == 7000);  // the most recent deadlines run
  CHECK(s.skipped_total() == 3);
  CHECK(s.next_deadline_ns() == 11'000);
  // A stall of a million periods costs one bounded wake, not a spiral.
  w = s.on_wake(11'000 + 1'000'000'000);
  CHECK(w.run == 4);
  CHECK(w.skipped == 1'000'001 - 4);
  // Every deadline is accounted for: run + skipped == deadlines passed.
  CHECK(1 + 3 + 4 + 4 + s.skipped_total() == uint64_t(s.next_deadline_ns() / 1000));
}

TEST_CASE("tick scheduler: rebase restarts the schedule (after a pause) without skipped ticks") {
  TickScheduler s(1000, 2);
  s.rebase(0);
  s.on_wake(0);
  s.rebase(50'000);
  const auto w = s.on_wake(50'000);
  CHECK(w.run == 1);
  CHECK(w.skipped == 0);
  CHECK_THROWS_AS(TickScheduler(0, 1), std::invalid_argument);
  CHECK_THROWS_AS(TickScheduler(1000, 0), std::invalid_argument);
}

}  // namespace
}  // namespace weft
