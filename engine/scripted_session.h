#pragma once
// The scene's scripted two-hand demo on the runtime in lockstep, advanced by sim time from one thread:
// what headless frame rendering, the render tests and the demo validations drive. The state is read
// through snapshots (the sim thread owns the world) until finish(), after which world() is readable.
#include <memory>
#include <vector>

#include "engine/runtime.h"
#include "engine/scripted_manipulation.h"
#include "engine/stream_replay.h"
#include "engine/tool_script.h"

namespace weft {

class ScriptedSession {
 public:
  // options.lockstep is forced on. Throws like Runtime's constructor.
  explicit ScriptedSession(RuntimeOptions options = {});
  // A runtime made elsewhere (it must be in lockstep and not started). drive_script false: the cloth is
  // left alone (`--no-script`).
  ScriptedSession(std::unique_ptr<Runtime> runtime, bool drive_script, SessionScript which = SessionScript::TwoHand);

  // Feeds the script and runs the sim up to sim time t (s, rounded to a tick); t only grows.
  void advance_to(double t);
  // The newest snapshot (the state at the last advance_to).
  const ClothSnapshot& snapshot() const { return snapshot_; }
  double time() const { return snapshot_.sim_time; }
  // Vertices the hand holds (the snapshot's grasp bits) and where the hand is.
  std::vector<uint32_t> held(Hand hand) const;
  glm::vec3 hand_position(Hand hand) const { return snapshot_.hands[size_t(hand)].position; }

  Runtime& runtime() { return *runtime_; }
  const SceneInfo& scene() const { return runtime_->scene(); }
  const TwoHandScript& script() const { return script_; }
  // The length of the script it drives (the two-hand demo's or the tool session's), s.
  double duration() const { return which_ == SessionScript::Tools ? tools_.duration() : script_.duration(); }
  // Stops the sim thread; the world can be read afterwards.
  void finish() { runtime_->stop(); }
  const World& world() const { return runtime_->world(); }

 private:
  std::unique_ptr<Runtime> runtime_;
  bool drive_script_ = true;
  SessionScript which_ = SessionScript::TwoHand;
  TwoHandScript script_;
  ToolScript tools_;
  ClothSnapshot snapshot_;
};

}  // namespace weft
