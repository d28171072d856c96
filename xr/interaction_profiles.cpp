#include "xr/interaction_profiles.h"

#include <array>

namespace weft::xr {

namespace {
// The simple controller has no squeeze: its select button grabs, and it has no trigger: it grabs only (no
// tools; its menu button is the system's on most runtimes). The tool button is A / X on Touch, A on
// Index, the menu button on Vive and Windows Mixed Reality controllers.
// Vive and Windows Mixed Reality grips are buttons (click); Touch and Index report a squeeze axis.
constexpr Binding kKhrSimpleController[] = {
    {HandAction::GripPose, 0, "/user/hand/left/input/grip/pose"},
    {HandAction::AimPose, 0, "/user/hand/left/input/aim/pose"},
    {HandAction::Squeeze, 0, "/user/hand/left/input/select/click"},
    {HandAction::Haptic, 0, "/user/hand/left/output/haptic"},
    {HandAction::GripPose, 1, "/user/hand/right/input/grip/pose"},
    {HandAction::AimPose, 1, "/user/hand/right/input/aim/pose"},
    {HandAction::Squeeze, 1, "/user/hand/right/input/select/click"},
    {HandAction::Haptic, 1, "/user/hand/right/output/haptic"},
};
constexpr Binding kOculusTouchController[] = {
    {HandAction::GripPose, 0, "/user/hand/left/input/grip/pose"},
    {HandAction::AimPose, 0, "/user/hand/left/input/aim/pose"},
    {HandAction::Squeeze, 0, "/user/hand/left/input/squeeze/value"},
    {HandAction::Trigger, 0, "/user/hand/left/input/trigger/value"},
    {HandAction::Haptic, 0, "/user/hand/left/output/haptic"},
    {HandAction::ToolCycle, 0, "/user/hand/left/input/x/click"},
    {HandAction::GripPose, 1, "/user/hand/right/input/grip/pose"},
    {HandAction::AimPose, 1, "/user/hand/right/input/aim/pose"},
    {HandAction::Squeeze, 1, "/user/hand/right/input/squeeze/value"},
    {HandAction::Trigger, 1, "/user/hand/right/input/trigger/value"},
    {HandAction::Haptic, 1, "/user/hand/right/output/haptic"},
    {HandAction::ToolCycle, 1, "/user/hand/right/input/a/click"},
};
constexpr Binding kValveIndexController[] = {
    {HandAction::GripPose, 0, "/user/hand/left/input/grip/pose"},
    {HandAction::AimPose, 0, "/user/hand/left/input/aim/pose"},
    {HandAction::Squeeze, 0, "/user/hand/left/input/squeeze/value"},
    {HandAction::Trigger, 0, "/user/hand/left/input/trigger/value"},
    {HandAction::Haptic, 0, "/user/hand/left/output/haptic"},
    {HandAction::ToolCycle, 0, "/user/hand/left/input/a/click"},
    {HandAction::GripPose, 1, "/user/hand/right/input/grip/pose"},
    {HandAction::AimPose, 1, "/user/hand/right/input/aim/pose"},
    {HandAction::Squeeze, 1, "/user/hand/right/input/squeeze/value"},
    {HandAction::Trigger, 1, "/user/hand/right/input/trigger/value"},
    {HandAction::Haptic, 1, "/user/hand/right/output/haptic"},
    {HandAction::ToolCycle, 1, "/user/hand/right/input/a/click"},
};
constexpr Binding kHtcViveController[] = {
    {HandAction::GripPose, 0, "/user/hand/left/input/grip/pose"},
    {HandAction::AimPose, 0, "/user/hand/left/input/aim/pose"},
    {HandAction::Squeeze, 0, "/user/hand/left/input/squeeze/click"},
    {HandAction::Trigger, 0, "/user/hand/left/input/trigger/value"},
    {HandAction::Haptic, 0, "/user/hand/left/output/haptic"},
    {HandAction::ToolCycle, 0, "/user/hand/left/input/menu/click"},
    {HandAction::GripPose, 1, "/user/hand/right/input/grip/pose"},
    {HandAction::AimPose, 1, "/user/hand/right/input/aim/pose"},
    {HandAction::Squeeze, 1, "/user/hand/right/input/squeeze/click"},
    {HandAction::Trigger, 1, "/user/hand/right/input/trigger/value"},
    {HandAction::Haptic, 1, "/user/hand/right/output/haptic"},
    {HandAction::ToolCycle, 1, "/user/hand/right/input/menu/click"},
};
constexpr Binding kMicrosoftMotionController[] = {
    {HandAction::GripPose, 0, "/user/hand/left/input/grip/pose"},
    {HandAction::AimPose, 0, "/user/hand/left/input/aim/pose"},
    {HandAction::Squeeze, 0, "/user/hand/left/input/squeeze/click"},
    {HandAction::Trigger, 0, "/user/hand/left/input/trigger/value"},
    {HandAction::Haptic, 0, "/user/hand/left/output/haptic"},
    {HandAction::ToolCycle, 0, "/user/hand/left/input/menu/click"},
    {HandAction::GripPose, 1, "/user/hand/right/input/grip/pose"},
    {HandAction::AimPose, 1, "/user/hand/right/input/aim/pose"},
    {HandAction::Squeeze, 1, "/user/hand/right/input/squeeze/click"},
    {HandAction::Trigger, 1, "/user/hand/right/input/trigger/value"},
    {HandAction::Haptic, 1, "/user/hand/right/output/haptic"},
    {HandAction::ToolCycle, 1, "/user/hand/right/input/menu/click"},
};

constexpr std::array<InteractionProfile, 5> kProfiles = {{
    {"/interaction_profiles/khr/simple_controller", kKhrSimpleController},
    {"/interaction_profiles/oculus/touch_controller", kOculusTouchController},
    {"/interaction_profiles/valve/index_controller", kValveIndexController},
    {"/interaction_profiles/htc/vive_controller", kHtcViveController},
    {"/interaction_profiles/microsoft/motion_controller", kMicrosoftMotionController},
}};
}  // namespace

std::string_view hand_action_name(HandAction action) {
  constexpr std::array<std::string_view, kHandActionCount> names = {"grip_pose", "aim_pose", "squeeze", "trigger",
                                                                    "haptic",    "tool_cycle"};
  return names[size_t(action)];
}

std::span<const InteractionProfile> interaction_profiles() { return kProfiles; }

const InteractionProfile* find_interaction_profile(std::string_view path) {
  for (const auto& p : kProfiles)
    if (p.path == path) return &p;
  return nullptr;
}

}  // namespace weft::xr
