#include <doctest/doctest.h>

#include "xr/haptic_gate.h"

using namespace weft;
using namespace weft::xr;

TEST_CASE("haptic gate: a pulse when the snapshot shows the grab held, none for a grab that catches nothing") {
  HapticGate gate;
  gate.grab_requested(Hand::Left, 1.0, true, false);
  CHECK_FALSE(gate.observe(Hand::Left, false, 1.01));  // not applied yet
  CHECK(gate.observe(Hand::Left, true, 1.02));         // the sim caught cloth: one pulse
  CHECK_FALSE(gate.observe(Hand::Left, true, 1.03));   // once

  gate.grab_requested(Hand::Right, 2.0, true, false);
  for (double t = 2.0; t < 2.0 + 2 * HapticGate::kWait; t += 0.011) CHECK_FALSE(gate.observe(Hand::Right, false, t));
  CHECK_FALSE(gate.observe(Hand::Right, true, 3.5));  // a later hold (another grab's) is not this one's

  // A replayed hand's grab never vibrates the controller; a released hand's pending grab is dropped.
  gate.grab_requested(Hand::Left, 4.0, false, false);
  CHECK_FALSE(gate.observe(Hand::Left, true, 4.01));
  gate.grab_requested(Hand::Left, 5.0, true, false);
  gate.released(Hand::Left);
  CHECK_FALSE(gate.observe(Hand::Left, true, 5.01));
}

TEST_CASE("haptic gate: a snapshot still showing the old hold is not taken for the new grab") {
  HapticGate gate;
  gate.grab_requested(Hand::Right, 1.0, true, true);    // the release before it is not applied yet
  CHECK_FALSE(gate.observe(Hand::Right, true, 1.005));  // the old hold
  CHECK_FALSE(gate.observe(Hand::Right, false, 1.01));  // released
  CHECK(gate.observe(Hand::Right, true, 1.02));         // the new grab held
}
