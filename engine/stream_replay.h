#pragma once
// Offline sessions on the runtime in lockstep (engine/runtime.h): the scripted two-hand session, its
// recording, and the replay of any pose stream, as fast as the sim runs (no rendering, no real-time
// wait), all on the same sim thread and code path as the live modes.
#include <cstdint>
#include <functional>
#include <string>

#include "engine/pose_conditioner.h"
#include "engine/pose_noise.h"
#include "engine/pose_stream.h"
#include "engine/runtime.h"
#include "engine/scripted_manipulation.h"

namespace weft {

// Feeds the two-hand script to a lockstep runtime up to (not including) tick `to`: tick k's hand poses
// and grab/release events are stamped k, through `sink` (the runtime's input, or a noisy/recording
// sink in front of it).
void feed_script(Runtime& runtime, TwoHandScript& script, InputSink& sink, uint64_t to);
// The same for the tool session: the script aims at the snapshot of each tick before its inputs.
class ToolScript;
void feed_tool_script(Runtime& runtime, ToolScript& script, InputSink& sink, uint64_t to);
TwoHandScript script_for(const SceneInfo& scene);

// Prints "label: tick k/T (p %)" to stderr at most once a second when long runs are under way.
class ProgressLine {
 public:
  ProgressLine(std::string label, uint64_t total, bool enabled = true);
  void update(uint64_t done);
  void finish();

 private:
  std::string label_;
  uint64_t total_;
  bool enabled_, printed_ = false;
  double start_, last_;
};

struct ReplayOptions {
  std::string scene_file;          // replay on this scene file instead of the one the header names
  bool use_scene_override = false; // scene_file was given (it may be "" for the built-in table)
  std::string solver;              // another integrator (the hash then differs); empty: the recorded one
  int threads = 0;                 // the solver's threads (the hash may differ); 0: the recorded number
  std::string device;              // cpu | gpu | auto (another device than the recording's: another hash); "": the scene's
  NoiseProfile noise;              // extra noise on the recorded samples ("none": exact replay)
  uint64_t seed = 0;
  bool condition_poses = true;
  ConditionerConfig conditioning;
  bool progress = true;            // progress on stderr for long streams
  TickHook tick_hook;              // called on the sim thread after every tick (per-tick traces)
};

struct ReplayResult {
  uint64_t ticks = 0;
  uint64_t records = 0;
  uint64_t hash = 0;               // World::state_hash() after the last tick
  uint64_t recorded_hash = 0;      // the stream's end record
  NoiseStats noise;
  double sim_seconds = 0;
  bool finite = true;              // every position stayed finite
  TickStats stats;                 // the sim thread's counters and stream metrics
  std::string scene_file;          // the scene it ran on
  int threads = 1;                 // the solver's threads it ran with
  std::string device = "cpu", device_name = "cpu", device_reason;  // what stepped it (SceneInfo's)
  std::vector<std::pair<std::string, size_t>> mesh_check;  // the load's mesh check (SceneInfo::mesh_check)
};

// Throws std::runtime_error when the scene the stream was recorded on differs from the one to replay on
// (content hash), naming both; SceneError when that scene cannot be loaded.
ReplayResult replay_pose_stream(const PoseStream& stream, const ReplayOptions& options);

struct RecordResult {
  uint64_t ticks = 0, records = 0, hash = 0;
  double sim_seconds = 0;
  TickStats stats;
  std::vector<std::pair<std::string, size_t>> mesh_check;  // the load's mesh check (SceneInfo::mesh_check)
};

// Runs the two-hand script (engine/scripted_manipulation.h) or the tool script (engine/tool_script.h) on
// the scene for `seconds` of sim time (<= 0: the script's length plus 1 s to settle), its hands passing
// through `noise` (none: clean), and writes every input the sim applied to `path`.
enum class SessionScript : uint8_t { TwoHand, Tools };  // engine/scripted_manipulation.h, engine/tool_script.h

struct RecordOptions {
  std::string scene_file;  // "": the built-in table
  std::string solver;      // "": the scene's
  int threads = 0;         // the solver's threads; 0: the scene's
  std::string device;      // cpu | gpu | auto; "": the scene's
  double tick_hz = 0;      // 0: the scene's
  double seconds = 0;
  NoiseProfile noise;
  uint64_t seed = 1;
  SessionScript script = SessionScript::TwoHand;
};
RecordResult record_scripted_session(const std::string& path, const RecordOptions& options);

}  // namespace weft
