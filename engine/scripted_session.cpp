#include "engine/scripted_session.h"

#include <cmath>

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
    : runtime_(std::make_unique<Runtime>(lockstep(std::move(options)))), script_(script_for(runtime_->scene())) {
  snapshot_.resize(runtime_->scene().vertices);
  runtime_->start();
  runtime_->run_to(0);
  interpolate_snapshot(runtime_->snapshots(), 1e300, snapshot_);
}

void ScriptedSession::advance_to(double t) {
  const uint64_t tick = uint64_t(std::llround(t * runtime_->scene().tick_hz));
  feed_script(*runtime_, script_, runtime_->input(), tick);
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
