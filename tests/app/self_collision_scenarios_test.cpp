#include <doctest/doctest.h>

#include "app/self_collision_scenarios.h"

using namespace weft::app;

namespace {
void check_all(const std::vector<ScenarioCheck>& checks) {
  REQUIRE(!checks.empty());
  for (const auto& c : checks) {
    INFO(c.check << " = " << c.value << (c.at_least ? " >= " : " <= ") << c.bound);
    CHECK(c.pass());
  }
}
}  // namespace

TEST_CASE("self-collision scenario: a cloth dropped so it folds over itself ends intersection-free") {
  check_all(run_drop_fold({.reduced = true}));
}

TEST_CASE("self-collision scenario: two stacked sheets pressed together stay separated") {
  check_all(run_stacked_press({.reduced = true}));
}

TEST_CASE("self-collision scenario: a cloth folded in half by two hands and released stays intersection-free") {
  check_all(run_hand_fold({.reduced = true}));
}
