#include <doctest/doctest.h>

#include "xr/tracker_roles.h"

using namespace weft;
using namespace weft::xr;

TEST_CASE("tracker role paths round-trip and reject near misses") {
  for (int i = 0; i < kTrackerRoleCount; ++i) {
    const auto role = TrackerRole(i);
    const auto parsed = parse_tracker_role_path(tracker_role_path(role));
    REQUIRE(parsed.has_value());
    CHECK(*parsed == role);
  }
  CHECK(parse_tracker_role_path("/user/vive_tracker_htcx/role/left_foot") == TrackerRole::LeftFoot);
  CHECK(parse_tracker_role_path("/user/vive_tracker_htcx/role/waist") == TrackerRole::Waist);
  CHECK_FALSE(parse_tracker_role_path("/user/vive_tracker_htcx/role/").has_value());
  CHECK_FALSE(parse_tracker_role_path("/user/vive_tracker_htcx/role/left_foot/").has_value());
  CHECK_FALSE(parse_tracker_role_path("/user/vive_tracker_htcx/role/tail").has_value());
  CHECK_FALSE(parse_tracker_role_path("/user/hand/left").has_value());
  CHECK_FALSE(parse_tracker_role_path("").has_value());
}

TEST_CASE("tracker slots: first four roles get Tracker0-3 - stable on reconnect - fifth refused") {
  TrackerSlots s;
  CHECK(s.assign(TrackerRole::Waist) == Device::Tracker0);
  CHECK(s.assign(TrackerRole::LeftFoot) == Device::Tracker1);
  CHECK(s.assign(TrackerRole::Waist) == Device::Tracker0);
  CHECK(s.assign(TrackerRole::Chest) == Device::Tracker2);
  CHECK(s.assign(TrackerRole::Camera) == Device::Tracker3);
  CHECK_FALSE(s.assign(TrackerRole::Keyboard).has_value());
  CHECK(s.find(TrackerRole::LeftFoot) == Device::Tracker1);
  CHECK_FALSE(s.find(TrackerRole::RightFoot).has_value());
  CHECK(s.assigned() == 4);
}

TEST_CASE("tracker slots kept for a scene's roles: a body part's role gets its slot whatever connects first") {
  TrackerSlots s;
  REQUIRE(parse_tracker_role_name("waist") == TrackerRole::Waist);
  CHECK_FALSE(parse_tracker_role_name("tail").has_value());
  CHECK(s.reserve(TrackerRole::Waist, Device::Tracker2));
  CHECK_FALSE(s.reserve(TrackerRole::Chest, Device::Tracker2));  // taken
  CHECK_FALSE(s.reserve(TrackerRole::Waist, Device::Tracker1));  // the role has its slot
  CHECK_FALSE(s.reserve(TrackerRole::Chest, Device::LeftHand));  // no tracker
  CHECK(s.assign(TrackerRole::LeftFoot) == Device::Tracker0);    // others take the free slots in order
  CHECK(s.assign(TrackerRole::Waist) == Device::Tracker2);
  CHECK(s.assign(TrackerRole::Chest) == Device::Tracker1);
  CHECK(s.assign(TrackerRole::Camera) == Device::Tracker3);
  CHECK(s.assigned() == 4);
}
