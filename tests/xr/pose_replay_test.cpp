#include <doctest/doctest.h>

#include "xr/pose_replay.h"

using namespace weft;
using namespace weft::xr;

TEST_CASE("replayed hands reach for the corner where it is now, and keep it while they hold") {
  ReplayConfig c;
  c.period_s = 4.0;
  c.left_corner = {-0.4f, 0.765f, 0.4f};  // table.json's near-left corner at rest
  const glm::vec3 drooped(-0.4f, 0.68f, 0.31f);  // where it hangs over the table edge
  // Approaching (phase 0.1): the corner is followed, and the hand descends onto it.
  track_replay_corner(c, Hand::Left, drooped, 0.4);
  CHECK(c.left_corner == drooped);
  CHECK_FALSE(replay_holding(c, 0.4));
  const HandSample at_squeeze = replay_hand(c, Hand::Left, 1.0);  // phase 0.25: at the corner, squeezing
  CHECK(glm::length(at_squeeze.grip.position - drooped) < 1e-6f);
  // Holding (phase 0.25 to 0.8): a corner that moves with the hand does not move the target.
  for (double t : {1.0, 1.5, 2.5, 3.1}) {
    CAPTURE(t);
    CHECK(replay_holding(c, t));
    track_replay_corner(c, Hand::Left, drooped + glm::vec3(0.f, 0.2f, 0.f), t);
    CHECK(c.left_corner == drooped);
  }
  // Released (phase 0.8 on): followed again; the right hand's corner is never touched by the left's.
  track_replay_corner(c, Hand::Left, {0.f, 0.f, 0.f}, 3.3);
  CHECK(c.left_corner == glm::vec3(0.f));
  CHECK(c.right_corner == glm::vec3(0.f));
}
