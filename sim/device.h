#pragma once
// The devices that drive the cloth (two hands, four trackers) and the hands among them: the small types the
// engine, XR and the sim all name, without including the world.
#include <cstdint>

namespace weft {

// Trackers follow the hands, then the headset (XR submits its pose: a body's head part follows it; it holds
// nothing). kDeviceCount bounds every per-device array.
enum class Device : uint8_t {
  LeftHand = 0, RightHand = 1, Tracker0 = 2, Tracker1 = 3, Tracker2 = 4, Tracker3 = 5, Head = 6
};
inline constexpr int kDeviceCount = 7;
inline constexpr int device_index(Device d) { return int(d); }

enum class Hand : uint8_t { Left = 0, Right = 1 };
inline constexpr Device hand_device(Hand h) { return h == Hand::Left ? Device::LeftHand : Device::RightHand; }

}  // namespace weft
