#pragma once
// The one path by which hands and trackers reach the cloth. Every front end (desktop mouse, scripted demo,
// stream replay, noise injection, stress, XR hands and trackers) talks to an InputSink; Runtime::input()
// applies what it is given on the sim thread at tick boundaries, in the order given. Nothing comes back:
// whether a pose was accepted, a grab caught cloth or a tracker clipped on is known on the sim thread only
// (TickStats counts it; the snapshot's gizmos and grasp bits show it).
#include "engine/tool_action.h"
#include "sim/pose.h"

namespace weft {

class InputSink {
 public:
  virtual ~InputSink() = default;
  // A hand or tracker pose, time on the runtime clock. The sim thread checks it (PoseSample::valid, numbers,
  // conditioning) and counts what it rejects: the producer forwards what it has.
  virtual void submit_pose(const PoseSample& sample) = 0;
  // The hand takes hold of the cloth within radius of pose.position / lets go.
  virtual void grab(Hand hand, const Pose& pose, float radius) = 0;
  virtual void release(Hand hand) = 0;
  // A tracker (or any device) clips onto the cloth near pose.position and follows its poses until detach.
  virtual void attach(Device device, const Pose& pose, float radius) = 0;
  virtual void detach(Device device) = 0;
  // The scene back to its rest state (grasps released; tracker attachments stay) and the conditioning cleared.
  virtual void reset() = 0;
  // The device's poses now come from another source (XR: live controllers after the built-in replay): the
  // conditioning forgets its history, so the jump is not rejected as an outlier. Send it before that
  // boundary's poses: it applies ahead of them when no other event is queued before it.
  virtual void reset_device(Device device) = 0;
  // A tool used on the cloth (cut, remove, scale, sew): an event for the next tick boundary. Whether the
  // world applied or refused it is the sim thread's to count (TickStats::edits_*, sews_*).
  virtual void tool(const ToolAction& action) = 0;
};

}  // namespace weft
