#include <doctest/doctest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "sim/solve_team.h"

using namespace weft;

namespace {

// A job in which every phase reads what both parts wrote in the phase before: each part adds the other
// part's last value to its own. Wrong ordering (a part running ahead of the barrier) gives other sums.
std::vector<long> run_chain(SolveTeam& team, int phases) {
  std::vector<long> value(SolveTeam::kParts, 1), last(SolveTeam::kParts, 0);
  std::vector<std::vector<long>> history(SolveTeam::kParts);
  team.run(phases, [&](int part, int phase) {
    if (phase % 2 == 0) {
      last[size_t(part)] = value[size_t(1 - part)];  // read the other part's value (stable this phase)
    } else {
      value[size_t(part)] += last[size_t(part)] + part;  // write only my own
      history[size_t(part)].push_back(value[size_t(part)]);
    }
  });
  std::vector<long> out;
  for (const auto& h : history) out.insert(out.end(), h.begin(), h.end());
  return out;
}

}  // namespace

// "threading": also run under ThreadSanitizer (CMakePresets.json, preset tsan).
TEST_SUITE("threading") {

TEST_CASE("solve team: phases keep their order and the same results with or without a helper thread") {
  SolveTeam alone(false), pair(true);
  CHECK(!alone.has_helper());
  CHECK(pair.has_helper());
  const std::vector<long> expected = run_chain(alone, 40);
  REQUIRE(expected.size() == 40);
  CHECK(expected[0] == 2);   // part 0: 1 + 1
  CHECK(expected[20] == 3);  // part 1: 1 + 1 + 1
  for (int job = 0; job < 300; ++job) {  // many short jobs back to back: the helper spins between them
    const std::vector<long> got = run_chain(pair, 40);
    REQUIRE(got == expected);
  }
  // after a pause long enough for the helper to go to sleep, a job still wakes it
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(run_chain(pair, 40) == expected);
}

TEST_CASE("solve team: both parts run every phase once and part 1 runs on the helper thread") {
  SolveTeam pair(true);
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<int> calls(2 * 7, 0);
  std::vector<std::thread::id> who(2 * 7);
  pair.run(7, [&](int part, int phase) {
    ++calls[size_t(2 * phase + part)];
    who[size_t(2 * phase + part)] = std::this_thread::get_id();
  });
  for (int phase = 0; phase < 7; ++phase) {
    CHECK(calls[size_t(2 * phase)] == 1);
    CHECK(calls[size_t(2 * phase + 1)] == 1);
    CHECK(who[size_t(2 * phase)] == caller);
    CHECK(who[size_t(2 * phase + 1)] != caller);
  }
  pair.run(0, [&](int, int) { FAIL("no phase to run"); });
}

}  // TEST_SUITE("threading")
