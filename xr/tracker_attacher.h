#pragma once
// Trackers as persistent attachments: a tracker's first trusted pose clips it onto the cloth there;
// later poses drive the attachment. Losing the tracker keeps the attachment at its last pose and a
// reconnecting tracker (same role, same slot) drives it again. Every located pose goes to the sim, flagged
// invalid when the runtime does not vouch for it (the sim thread checks and counts it); only a pose it
// vouches for, in numbers the sim takes, clips a tracker on.
#include <array>
#include <cstdint>

#include <openxr/openxr.h>

#include "engine/input_sink.h"
#include "xr/location_validity.h"
#include "xr/tracker_roles.h"

namespace weft::xr {

class TrackerAttacher {
 public:
  explicit TrackerAttacher(float radius_m = 0.03f) : radius_(radius_m) {}
  // One located tracker pose; active false means the runtime reports it disconnected.
  void update(Device tracker, bool active, XrSpaceLocationFlags flags, const Pose& pose, double time,
              InputSink& sink);
  void detach_all(InputSink& sink);
  // The tracker drives a body part (a scene's body part follows its role): its poses go to the sim, and it
  // never clips onto the cloth.
  void drive_body(Device tracker) { body_[slot(tracker)] = true; }

  bool attached(Device tracker) const { return attached_[slot(tracker)]; }
  bool connected(Device tracker) const { return connected_[slot(tracker)]; }
  uint64_t poses_received() const { return poses_received_; }  // sent to the sim
  uint64_t disconnects() const { return disconnects_; }

 private:
  static size_t slot(Device d) { return size_t(device_index(d) - device_index(Device::Tracker0)); }
  float radius_;
  std::array<bool, 4> attached_{}, connected_{}, body_{};
  uint64_t poses_received_ = 0;
  uint64_t disconnects_ = 0;
};

}  // namespace weft::xr
