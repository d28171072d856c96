#include "xr/engine_input_sink.h"

namespace weft::xr {

namespace {
// Tracker0..Tracker3 -> 0..3; -1 for hands.
int tracker_slot(Device d) {
  const int i = device_index(d) - device_index(Device::Tracker0);
  return i >= 0 && i < 4 ? i : -1;
}
}  // namespace

bool EngineInputSink::submit_pose(const PoseSample& sample) {
  if (!inner_.submit_pose(sample)) return false;
  if (const int t = tracker_slot(sample.device); t >= 0) {
    DeviceGizmo& g = trackers_[size_t(t)];
    g.active = true;
    g.position = sample.pose.position;
    g.orientation = sample.pose.orientation;
  }
  return true;
}

size_t EngineInputSink::attach_tracker(Device tracker, const Pose& pose, float) {
  ++attach_requests_;
  if (const int t = tracker_slot(tracker); t >= 0) {
    DeviceGizmo& g = trackers_[size_t(t)];
    g.active = true;
    g.grabbing = true;
    g.position = pose.position;
    g.orientation = pose.orientation;
  }
  return 0;
}

void EngineInputSink::detach_tracker(Device tracker) {
  if (const int t = tracker_slot(tracker); t >= 0) trackers_[size_t(t)].grabbing = false;
}

void EngineInputSink::fill_trackers(ClothSnapshot& snapshot) const { snapshot.trackers = trackers_; }

}  // namespace weft::xr
