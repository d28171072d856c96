#include "engine/scripted_session.h"

#include <cmath>
#include <stdexcept>

#include "engine/snapshot_interpolation.h"
#include "engine/stream_replay.h"

namespace weft {
namespace {

RuntimeOptions lockstep(RuntimeOptions o) {
  o.lockstep = true;
  return o;
}

}  // namespace

ScriptedSession::ScriptedSession(RuntimeOptions options)
    : ScriptedSession(std::make_unique<Runtime>(lockstep(std::move(options))), true) {}

ScriptedSession::ScriptedSession(std::unique_ptr<Runtime> runtime, bool drive_script, SessionScript which)
    : runtime_(std::move(runtime)), drive_script_(drive_script), which_(which), script_(script_for(runtime_->scene())) {
  if (!runtime_->options().lockstep) throw std::logic_error("ScriptedSession needs a lockstep runtime");
  snapshot_.resize(runtime_->scene().vertices);
  runtime_->start();
  runtime_->run_to(0);
  interpolate_snapshot(runtime_->snapshots(), 1e300, snapshot_);
}

void ScriptedSession::advance_to(double t) {
  const uint64_t tick = uint64_t(std::llround(t * runtime_->scene().tick_hz));
  if (drive_script_ && which_ == SessionScript::Tools) feed_tool_script(*runtime_, tools_, runtime_->input(), tick);
  else if (drive_script_) feed_script(*runtime_, script_, runtime_->input(), tick);
  runtime_->run_to(tick);
  interpolate_snapshot(runtime_->snapshots(), 1e300, snapshot_);
}

std::vector<uint32_t> ScriptedSession::held(Hand hand) const {
  std::vector<uint32_t> out;
  const uint8_t bit = uint8_t(1u << unsigned(hand));
  for (uint32_t i = 0; i < snapshot_.grasped.size(); ++i)
    if (snapshot_.grasped[i] & bit) out.push_back(i);
  return out;
}

}  // namespace weft
