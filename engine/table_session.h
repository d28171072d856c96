#pragma once
// The built-in table scene stepped tick by tick with its pose path (conditioning -> World), counting
// ticks: what `weft record` records and `weft replay` re-runs. A stream's inputs stamped with tick k
// are applied before the k-th step, which makes a replay bit-identical to the session.
#include <cstdint>

#include "engine/demo_scene.h"
#include "engine/direct_world_input.h"
#include "engine/pose_stream.h"

namespace weft {

class TableSession {
 public:
  explicit TableSession(const PoseStreamHeader& header, const ConditionerConfig& conditioning = {});

  // The header describing the default table scene at this tick rate.
  static PoseStreamHeader header_for(const TableSceneSpec& spec, const char* source);

  // One tick: the stand-in grasp's velocities, World::step, the stand-in table contact.
  void step();
  // World and inputs back to rest (the tick counter keeps counting: ticks are stream positions).
  void reset();

  World& world() { return scene_.world; }
  const World& world() const { return scene_.world; }
  DemoScene& scene() { return scene_; }
  DirectWorldInput& input() { return input_; }
  uint64_t tick() const { return tick_; }
  const uint64_t& tick_counter() const { return tick_; }

 private:
  DemoScene scene_;
  DirectWorldInput input_;
  uint64_t tick_ = 0;
};

}  // namespace weft
