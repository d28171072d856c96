#include <cmath>

#include <doctest/doctest.h>

#include "lab/interaction_validation.h"

namespace weft::lab {

// Issue 34: `weft validate interaction`'s hands-still energy check read 5.3 % of the input after the grasp
// yield (sim/grasp_saturation.h, commit 4809692). The yield does not put that energy in: here the hands pull
// the cloth 10 % wider than it and hold still, the yield holding both patches back on every tick of the
// hold, and the cloth, with no table under it, gains nothing. (The 5.3 % was the table's: its contacts,
// then outside the solve, moved about 0.01 J in and out of the cloth lying on it every few ticks;
// docs/decisions/hold-energy-table-contact.md.)
TEST_CASE("interaction experiment pulled 10 % wider, no table, damping 0: held back by the yield, the cloth gains no "
          "energy while the hands are still") {
  InteractionSetup setup;
  setup.quads = 31;
  setup.damping = false;
  setup.table = false;
  setup.apart = 1.1f;
  const InteractionResult r = run_interaction(setup);
  MESSAGE("yield patch-ticks " << r.grasp_saturated << " (hands still: " << r.grasp_saturated_still << "), hold rise "
                               << r.hold_energy_rise << " J of input " << r.energy_input << " J");
  REQUIRE(r.finite);
  CHECK(r.grasp_saturated_still > 0);  // the yield holds the patches while the hands are still
  CHECK(r.energy_input > 0);
  CHECK(r.hold_energy_rise <= 0.01 * r.energy_input);
  CHECK(r.hold_energy_rise <= 1e-3);  // J: the 96 g cloth lifted by 1 mm
}

}  // namespace weft::lab

namespace weft::lab {

// The check itself, at 1 k vertices: with the table under the cloth, damping 0, the cloth gains no energy while
// the hands are still. With the collider contacts outside the solve (InteractionConfig::contacts_in_solve
// false) it read 1.7 % of the input here, 5.3 % at 16 k.
TEST_CASE("interaction experiment on the table, 1 k vertices, damping 0: no energy gained while the hands are still") {
  InteractionSetup setup;
  setup.quads = 31;
  setup.damping = false;
  const InteractionResult r = run_interaction(setup);
  MESSAGE("hold rise " << r.hold_energy_rise << " J of input " << r.energy_input << " J");
  REQUIRE(r.finite);
  CHECK(r.energy_input > 0);
  CHECK(r.hold_energy_rise <= 0.01 * r.energy_input);
}

}  // namespace weft::lab

namespace weft::lab {

// The hands enter and leave the shake at rest (a hand cannot reach 0.5 m/s within one tick), so the
// tracked target's velocity is continuous at both ends; its travel is 2 x the amplitude.
TEST_CASE("interaction experiment: the shake starts and ends at rest, 4 cm peak to peak at 2 Hz") {
  const InteractionTimeline tl;
  const double dt = 1e-4;
  CHECK(shake_offset(tl.pull_end, tl) == 0);
  CHECK(std::abs(shake_offset(tl.pull_end + dt, tl)) / dt < 0.01);  // m/s just after the start
  CHECK(std::abs(shake_offset(tl.shake_end - dt, tl)) / dt < 0.01);  // and just before the end
  CHECK(shake_offset(tl.pull_end + 0.25, tl) == doctest::Approx(0.04));
  CHECK(shake_offset(tl.shake_end + dt, tl) == 0);
}

// Issue 14's held-strain bars (p99 1 %, max 3 %) at 2.3 k vertices: with the shake entering at full speed
// (0.5 m/s asked within one tick) the edge beside a grasp reached 3.5 % here, 8.0 % at 4 k and 9.9 % at 16 k;
// entering at rest, 1.7 %, 1.3 % and 1.6 %.
TEST_CASE("interaction experiment on the table, 2.3 k vertices: no edge past 3 % while held") {
  InteractionSetup setup;
  setup.quads = 47;
  InteractionTimeline tl;
  tl.shake_amplitude = 0.04;  // the harder shake: 0.5 m/s at the hands
  const InteractionResult r = run_interaction(setup, tl);
  MESSAGE("strain while held: p99 " << r.strain_p99 << ", max " << r.strain_max);
  REQUIRE(r.finite);
  CHECK(r.strain_p99 <= 0.01);
  CHECK(r.strain_max <= 0.03);
}

}  // namespace weft::lab

namespace weft::lab {

// Issue 14's height bar (no free vertex 1 cm above the higher hand) at 4 k vertices, the default shake. The
// front edge beside a grasp lags the hands by its wave travel time; with the hands twice as fast (4 cm
// amplitude) it rose above them past the bar: 16.6 mm here, 14.6 mm at 16 k (at 2.3 k only 0.2 mm, so the
// test runs at 4 k).
TEST_CASE("interaction experiment on the table, 4 k vertices: no free vertex 1 cm above the hands") {
  InteractionSetup setup;
  setup.quads = 63;
  const InteractionResult r = run_interaction(setup);
  MESSAGE("highest free vertex above the higher hand " << r.max_height_above_hand << " m");
  REQUIRE(r.finite);
  CHECK(r.max_height_above_hand <= 0.01);
}

}  // namespace weft::lab
