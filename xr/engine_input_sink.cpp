#include "xr/engine_input_sink.h"

namespace weft::xr {

namespace {
// Tracker0..Tracker3 -> 0..3; -1 for hands.
int tracker_slot(Device d) {
  const int i = device_index(d) - device_index(Device::Tracker0);
  return i >= 0 && i < 4 ? i : -1;
}
}  // namespace

size_t EngineInputSink::attach_tracker(Device tracker, const Pose& pose, float radius) {
  ++attach_requests_;
  runtime_.attach(tracker, pose, radius);
  if (const int t = tracker_slot(tracker); t >= 0) clipped_[size_t(t)] = true;
  return 0;  // known on the sim thread (TickStats attaches)
}

void EngineInputSink::detach_tracker(Device tracker) {
  runtime_.detach(tracker);
  if (const int t = tracker_slot(tracker); t >= 0) clipped_[size_t(t)] = false;
}

void EngineInputSink::mark_clipped(ClothSnapshot& snapshot) const {
  for (size_t t = 0; t < clipped_.size(); ++t) snapshot.trackers[t].grabbing = clipped_[t] && snapshot.trackers[t].active;
}

}  // namespace weft::xr
