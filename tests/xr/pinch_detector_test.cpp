#include <doctest/doctest.h>

#include <array>

#include "xr/pinch_detector.h"

using namespace weft::xr;

namespace {
std::array<XrHandJointLocationEXT, XR_HAND_JOINT_COUNT_EXT> hand_with_gap(float gap_m, bool tips_valid = true) {
  std::array<XrHandJointLocationEXT, XR_HAND_JOINT_COUNT_EXT> j{};
  const XrSpaceLocationFlags f = tips_valid ? XR_SPACE_LOCATION_POSITION_VALID_BIT | XR_SPACE_LOCATION_ORIENTATION_VALID_BIT : 0;
  j[XR_HAND_JOINT_THUMB_TIP_EXT].locationFlags = f;
  j[XR_HAND_JOINT_THUMB_TIP_EXT].pose.position = {0.1f, 1.2f, -0.3f};
  j[XR_HAND_JOINT_INDEX_TIP_EXT].locationFlags = f;
  j[XR_HAND_JOINT_INDEX_TIP_EXT].pose.position = {0.1f + gap_m * 0.6f, 1.2f + gap_m * 0.8f, -0.3f};
  return j;
}
}  // namespace

TEST_CASE("pinch distance is the thumb tip to index tip distance") {
  const auto j = hand_with_gap(0.05f);
  float d = 0;
  REQUIRE(pinch_distance(j.data(), uint32_t(j.size()), d));
  CHECK(d == doctest::Approx(0.05f));
  CHECK_FALSE(pinch_distance(j.data(), 3, d));  // too few joints
}

TEST_CASE("pinch with hysteresis - untracked tips keep the state and are counted") {
  PinchDetector p;
  CHECK(p.update(hand_with_gap(0.06f).data(), XR_HAND_JOINT_COUNT_EXT) == Edge::None);
  CHECK(p.update(hand_with_gap(0.01f).data(), XR_HAND_JOINT_COUNT_EXT) == Edge::Engaged);
  CHECK(p.update(hand_with_gap(0.08f, false).data(), XR_HAND_JOINT_COUNT_EXT) == Edge::None);
  CHECK(p.pinched());
  CHECK(p.dropped_frames() == 1);
  CHECK(p.update(hand_with_gap(0.02f).data(), XR_HAND_JOINT_COUNT_EXT) == Edge::None);
  CHECK(p.update(hand_with_gap(0.04f).data(), XR_HAND_JOINT_COUNT_EXT) == Edge::Released);
  CHECK(p.last_distance() == doctest::Approx(0.04f));
}
