#pragma once
// An InputSink that keeps the tool actions it is sent and counts grabs and poses: what the tool strokes'
// tests (window and headset) check.
#include <vector>

#include "engine/input_sink.h"

namespace weft::test {

struct ToolSink final : InputSink {
  std::vector<ToolAction> tools;
  int grabs = 0, poses = 0;
  void submit_pose(const PoseSample&) override { ++poses; }
  void grab(Hand, const Pose&, float) override { ++grabs; }
  void release(Hand) override {}
  void attach(Device, const Pose&, float) override {}
  void detach(Device) override {}
  void reset() override {}
  void reset_device(Device) override {}
  void tool(const ToolAction& a) override { tools.push_back(a); }
};

}  // namespace weft::test
