#pragma once
// The statistics every mode of `weft run` (and record/replay) reports, under the same keys
// (docs/runtime.md, "Run statistics"): the sim thread's tick timing and inputs, the front end's frames, and the
// stream metrics of the session.
#include <string>

#include <nlohmann/json.hpp>

#include "engine/frame_stats.h"
#include "engine/runtime.h"

namespace weft::app {

// Call after runtime.stop(). Mode-specific keys are added by the caller.
nlohmann::json run_summary(const std::string& mode, const Runtime& runtime, const FrameStats& frames);
// The stream metrics and input counters alone (replay, stress).
nlohmann::json stream_summary(const TickStats& stats);
// Self-collision per tick (contacts, zones, largest zone, tangled pairs, ms, caps), for a world that has it.
nlohmann::json self_collision_summary(const TickStats& stats);
// One line on stderr when the fail-safe (sim/failsafe.h) engaged during the run, nothing otherwise.
void print_failsafe_notice(uint64_t speed_clamps, uint64_t energy_clamps);
// One line when grasps yielded during the run (saturated and sliding patch-ticks), empty otherwise.
std::string grasp_notice(uint64_t saturated, uint64_t sliding);
// One line on the seams (pairs sewn, largest gap at the end and at worst) for a stream with seams, else empty.
std::string seam_notice(const nlohmann::json& stream);
// The fail-safe notice, the grasp notice and the seam notice for a stream summary (stream_summary's keys), on stderr.
void print_stream_notices(const nlohmann::json& stream);
// A short human summary of the same on stderr (the fail-safe and grasp notices included).
void print_run_summary(const nlohmann::json& summary);
// One stderr line: what steps the cloth and why (`device`, `device_name`, `device_reason` in --json).
void print_device_line(const std::string& device, const std::string& name, const std::string& reason);
inline void print_device_line(const SceneInfo& scene) {
  print_device_line(scene.device, scene.device_name, scene.device_reason);
}
std::string hex64(uint64_t v);
// `weft mesh --check`'s counts on the loaded mesh (SceneInfo::mesh_check) as {kind: count}.
nlohmann::json mesh_check_summary(const std::vector<std::pair<std::string, size_t>>& counts);

}  // namespace weft::app
