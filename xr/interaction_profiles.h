#pragma once
// Suggested bindings of the hand actions for each controller family Weft supports. Plain tables:
// the session turns them into XrActionSuggestedBinding lists; the tests check their shape.
#include <cstdint>
#include <span>
#include <string_view>

namespace weft::xr {

// One action per kind, each with the two hand subaction paths.
// ToolCycle: a button that picks the hand's next tool (xr/hand_tools.h); Trigger applies it.
enum class HandAction : uint8_t { GripPose, AimPose, Squeeze, Trigger, Haptic, ToolCycle };
inline constexpr int kHandActionCount = 6;
std::string_view hand_action_name(HandAction action);  // "grip_pose", ... (valid XR action names)

inline constexpr std::string_view kLeftHandPath = "/user/hand/left";
inline constexpr std::string_view kRightHandPath = "/user/hand/right";

struct Binding {
  HandAction action;
  uint8_t hand;           // 0 left, 1 right
  std::string_view path;  // full input or output path
};

struct InteractionProfile {
  std::string_view path;               // /interaction_profiles/...
  std::span<const Binding> bindings;
};

std::span<const InteractionProfile> interaction_profiles();
// nullptr when the path is not one of ours.
const InteractionProfile* find_interaction_profile(std::string_view path);

// Trackers (XR_HTCX_vive_tracker_interaction) bind only a grip pose per role.
inline constexpr std::string_view kViveTrackerProfile = "/interaction_profiles/htc/vive_tracker_htcx";

}  // namespace weft::xr
