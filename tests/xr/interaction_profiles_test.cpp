#include <doctest/doctest.h>

#include <set>
#include <string>

#include "xr/interaction_profiles.h"

using namespace weft::xr;

TEST_CASE("five controller families - each with grip - aim - squeeze and haptic on both hands") {
  const auto profiles = interaction_profiles();
  REQUIRE(profiles.size() == 5);
  for (const char* p : {"/interaction_profiles/khr/simple_controller", "/interaction_profiles/oculus/touch_controller",
                        "/interaction_profiles/valve/index_controller", "/interaction_profiles/htc/vive_controller",
                        "/interaction_profiles/microsoft/motion_controller"})
    CHECK(find_interaction_profile(p) != nullptr);
  CHECK(find_interaction_profile("/interaction_profiles/htc/vive_tracker_htcx") == nullptr);
  for (const auto& profile : profiles) {
    CAPTURE(std::string(profile.path));
    std::set<std::pair<int, int>> seen;
    for (const auto& b : profile.bindings) {
      const std::string path(b.path);
      const std::string hand(b.hand == 0 ? kLeftHandPath : kRightHandPath);
      CAPTURE(path);
      CHECK(path.rfind(hand + "/", 0) == 0);  // the subaction path matches the hand
      CHECK(path.find("//") == std::string::npos);
      for (char c : path) CHECK(((c >= 'a' && c <= 'z') || c == '/' || c == '_'));
      CHECK(seen.insert({int(b.action), b.hand}).second);  // one binding per action and hand
      if (b.action == HandAction::GripPose) CHECK(path == hand + "/input/grip/pose");
      if (b.action == HandAction::AimPose) CHECK(path == hand + "/input/aim/pose");
      if (b.action == HandAction::Haptic) CHECK(path == hand + "/output/haptic");
    }
    for (int hand = 0; hand < 2; ++hand)
      for (auto a : {HandAction::GripPose, HandAction::AimPose, HandAction::Squeeze, HandAction::Haptic})
        CHECK(seen.count({int(a), hand}) == 1);
  }
}

TEST_CASE("squeeze and trigger components follow each controller's hardware") {
  auto squeeze_of = [](std::string_view profile) {
    for (const auto& b : find_interaction_profile(profile)->bindings)
      if (b.action == HandAction::Squeeze && b.hand == 1) return std::string(b.path);
    return std::string();
  };
  auto has_trigger = [](std::string_view profile) {
    for (const auto& b : find_interaction_profile(profile)->bindings)
      if (b.action == HandAction::Trigger) return true;
    return false;
  };
  CHECK(squeeze_of("/interaction_profiles/khr/simple_controller") == "/user/hand/right/input/select/click");
  CHECK(squeeze_of("/interaction_profiles/oculus/touch_controller") == "/user/hand/right/input/squeeze/value");
  CHECK(squeeze_of("/interaction_profiles/valve/index_controller") == "/user/hand/right/input/squeeze/value");
  CHECK(squeeze_of("/interaction_profiles/htc/vive_controller") == "/user/hand/right/input/squeeze/click");
  CHECK(squeeze_of("/interaction_profiles/microsoft/motion_controller") == "/user/hand/right/input/squeeze/click");
  CHECK_FALSE(has_trigger("/interaction_profiles/khr/simple_controller"));
  CHECK(has_trigger("/interaction_profiles/valve/index_controller"));
  CHECK(hand_action_name(HandAction::GripPose) == "grip_pose");
}

TEST_CASE("the tool button: every profile with a trigger has one per hand, the simple controller neither") {
  auto tool_button = [](std::string_view profile, int hand) {
    for (const auto& b : find_interaction_profile(profile)->bindings)
      if (b.action == HandAction::ToolCycle && b.hand == hand) return std::string(b.path);
    return std::string();
  };
  for (const auto& profile : interaction_profiles()) {
    bool trigger = false;
    for (const auto& b : profile.bindings) trigger = trigger || b.action == HandAction::Trigger;
    CAPTURE(std::string(profile.path));
    // A tool needs both: a button without a trigger would pick tools that nothing applies.
    CHECK(trigger == !tool_button(profile.path, 0).empty());
    CHECK(trigger == !tool_button(profile.path, 1).empty());
  }
  CHECK(tool_button("/interaction_profiles/oculus/touch_controller", 0) == "/user/hand/left/input/x/click");
  CHECK(tool_button("/interaction_profiles/oculus/touch_controller", 1) == "/user/hand/right/input/a/click");
  CHECK(tool_button("/interaction_profiles/valve/index_controller", 1) == "/user/hand/right/input/a/click");
  CHECK(hand_action_name(HandAction::ToolCycle) == "tool_cycle");
}
