#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>

#include "xr/hysteresis.h"

using namespace weft::xr;

TEST_CASE("squeeze latch engages high - releases low - and does not chatter in between") {
  HysteresisLatch l = make_squeeze_latch();
  CHECK(l.update(0.5f) == Edge::None);
  CHECK(l.update(0.69f) == Edge::None);
  CHECK(l.update(0.7f) == Edge::Engaged);
  CHECK(l.engaged());
  // Hovering between the thresholds keeps the grab.
  for (float v : {0.6f, 0.4f, 0.69f, 0.36f, 0.5f}) CHECK(l.update(v) == Edge::None);
  CHECK(l.engaged());
  CHECK(l.update(0.35f) == Edge::Released);
  CHECK(l.update(0.5f) == Edge::None);
  CHECK_FALSE(l.engaged());
}

TEST_CASE("click inputs cross both thresholds - NaN changes nothing - reset releases once") {
  HysteresisLatch l = make_squeeze_latch();
  CHECK(l.update(1.f) == Edge::Engaged);
  CHECK(l.update(std::nanf("")) == Edge::None);
  CHECK(l.engaged());
  CHECK(l.reset() == Edge::Released);
  CHECK(l.reset() == Edge::None);
  CHECK(l.update(1.f) == Edge::Engaged);
  CHECK(l.update(0.f) == Edge::Released);
}

TEST_CASE("pinch latch engages on a small distance and releases on a large one") {
  HysteresisLatch l = make_pinch_latch();
  CHECK(l.update(0.05f) == Edge::None);
  CHECK(l.update(0.014f) == Edge::Engaged);
  CHECK(l.update(0.025f) == Edge::None);
  CHECK(l.update(0.031f) == Edge::Released);
}
