#include "xr/tracker_roles.h"

namespace weft::xr {

namespace {
constexpr std::array<std::string_view, kTrackerRoleCount> kNames = {
    "handheld_object", "left_foot", "right_foot", "left_shoulder", "right_shoulder", "left_elbow", "right_elbow",
    "left_knee", "right_knee", "waist", "chest", "camera", "keyboard"};
}  // namespace

std::string_view tracker_role_name(TrackerRole role) { return kNames[size_t(role)]; }

std::string tracker_role_path(TrackerRole role) {
  return std::string(kTrackerRolePrefix) + std::string(tracker_role_name(role));
}

std::optional<TrackerRole> parse_tracker_role_name(std::string_view name) {
  for (int i = 0; i < kTrackerRoleCount; ++i)
    if (kNames[size_t(i)] == name) return TrackerRole(i);
  return std::nullopt;
}

std::optional<TrackerRole> parse_tracker_role_path(std::string_view path) {
  if (!path.starts_with(kTrackerRolePrefix)) return std::nullopt;
  return parse_tracker_role_name(path.substr(kTrackerRolePrefix.size()));
}

std::optional<Device> TrackerSlots::find(TrackerRole role) const {
  for (int i = 0; i < kSlots; ++i)
    if (role_[size_t(i)] == role) return Device(device_index(Device::Tracker0) + i);
  return std::nullopt;
}

std::optional<Device> TrackerSlots::assign(TrackerRole role) {
  if (auto d = find(role)) return d;
  for (int i = 0; i < kSlots; ++i)
    if (!role_[size_t(i)]) {
      role_[size_t(i)] = role;
      return Device(device_index(Device::Tracker0) + i);
    }
  return std::nullopt;
}

bool TrackerSlots::reserve(TrackerRole role, Device device) {
  const int slot = device_index(device) - device_index(Device::Tracker0);
  if (slot < 0 || slot >= kSlots || role_[size_t(slot)] || find(role)) return false;
  role_[size_t(slot)] = role;
  return true;
}

int TrackerSlots::assigned() const {
  int n = 0;
  for (const auto& r : role_) n += r.has_value();
  return n;
}

}  // namespace weft::xr
