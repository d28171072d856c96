#pragma once
// XR_HTCX_vive_tracker_interaction: role paths and the tracker slots of the sim. A tracker's role
// arrives as a path such as /user/vive_tracker_htcx/role/left_foot; each role seen gets one of
// the sim's four tracker devices, kept across disconnects so a reconnecting tracker drives the
// same attachment.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/pose.h"

namespace weft::xr {

enum class TrackerRole : uint8_t {
  HandheldObject, LeftFoot, RightFoot, LeftShoulder, RightShoulder, LeftElbow, RightElbow,
  LeftKnee, RightKnee, Waist, Chest, Camera, Keyboard,
};
inline constexpr int kTrackerRoleCount = 13;
inline constexpr std::string_view kTrackerRolePrefix = "/user/vive_tracker_htcx/role/";

// The role's name as the extension spells it ("left_foot").
std::string_view tracker_role_name(TrackerRole role);
// The full top-level user path ("/user/vive_tracker_htcx/role/left_foot").
std::string tracker_role_path(TrackerRole role);
// Parses a role path; nullopt for anything that is not exactly prefix + a known role.
std::optional<TrackerRole> parse_tracker_role_path(std::string_view path);

class TrackerSlots {
 public:
  static constexpr int kSlots = 4;  // Device::Tracker0 .. Tracker3
  // The device for this role, assigning the next free slot on first sight; nullopt when all four
  // slots belong to other roles.
  std::optional<Device> assign(TrackerRole role);
  std::optional<Device> find(TrackerRole role) const;
  // Keeps `device`'s slot for `role` before any tracker is seen (a scene's body part follows that role on
  // that device: Scene::tracker_roles). False when the slot or the role is taken, or device is no tracker.
  bool reserve(TrackerRole role, Device device);
  int assigned() const;

 private:
  std::array<std::optional<TrackerRole>, kSlots> role_{};
};

// The role named as the extension spells it ("waist"); nullopt for any other name.
std::optional<TrackerRole> parse_tracker_role_name(std::string_view name);

}  // namespace weft::xr
