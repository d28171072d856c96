#include "xr/tracker_attacher.h"

namespace weft::xr {

void TrackerAttacher::update(Device tracker, bool active, XrSpaceLocationFlags flags, const Pose& pose, double time,
                             InputSink& sink) {
  const size_t i = slot(tracker);
  if (!active) {
    if (connected_[i]) ++disconnects_;
    connected_[i] = false;
    return;
  }
  connected_[i] = true;
  PoseSample s;
  s.time = time;
  s.device = tracker;
  s.pose = pose;
  s.valid = location_flags_valid(flags);
  sink.submit_pose(s);
  ++poses_received_;
  if (!attached_[i] && !body_[i] && s.valid && pose_finite_unit(pose)) {
    sink.attach(tracker, pose, radius_);
    attached_[i] = true;
  }
}

void TrackerAttacher::detach_all(InputSink& sink) {
  for (size_t i = 0; i < attached_.size(); ++i)
    if (attached_[i]) {
      sink.detach(Device(device_index(Device::Tracker0) + int(i)));
      attached_[i] = false;
    }
}

}  // namespace weft::xr
