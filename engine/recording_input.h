#pragma once
// An InputSink in front of another that writes every sample and event to a pose stream, stamped with
// the tick about to be stepped, then forwards it. Put it where the tracking system's output enters
// the conditioning (after any injected noise), so a replay feeds the conditioning the same samples.
#include <cstdint>

#include "engine/input_sink.h"
#include "engine/pose_stream.h"

namespace weft {

class RecordingInput : public InputSink {
 public:
  // tick: the session's counter of ticks stepped so far (read at each call).
  RecordingInput(InputSink& next, PoseStreamWriter& writer, const uint64_t& tick)
      : next_(next), writer_(writer), tick_(tick) {}

  bool submit_pose(const PoseSample& sample) override {
    StreamRecord r;
    r.tick = tick_;
    r.sample = sample;
    writer_.write(r);
    return next_.submit_pose(sample);
  }
  size_t grab(Hand hand, const Pose& pose, float radius) override {
    StreamRecord r;
    r.tick = tick_;
    r.kind = StreamRecordKind::Grab;
    r.sample.device = hand_device(hand);
    r.sample.pose = pose;
    r.radius = radius;
    writer_.write(r);
    return next_.grab(hand, pose, radius);
  }
  void release(Hand hand) override {
    StreamRecord r;
    r.tick = tick_;
    r.kind = StreamRecordKind::Release;
    r.sample.device = hand_device(hand);
    writer_.write(r);
    next_.release(hand);
  }
  // The session was reset (world and inputs back to rest); the caller does the reset itself.
  void record_reset() {
    StreamRecord r;
    r.tick = tick_;
    r.kind = StreamRecordKind::Reset;
    writer_.write(r);
  }

 private:
  InputSink& next_;
  PoseStreamWriter& writer_;
  const uint64_t& tick_;
};

}  // namespace weft
