#pragma once
// Recording the scripted headless session and replaying any pose stream, as fast as the sim runs
// (no rendering, no real-time wait): `weft record` without a display and `weft replay`.
#include <cstdint>
#include <string>

#include "engine/pose_conditioner.h"
#include "engine/pose_noise.h"
#include "engine/pose_stream.h"

namespace weft {

struct ReplayOptions {
  NoiseProfile noise;              // extra noise on the recorded samples ("none": exact replay)
  uint64_t seed = 0;
  ConditionerConfig conditioning;
};

struct ReplayResult {
  uint64_t ticks = 0;
  uint64_t records = 0;
  uint64_t hash = 0;               // World::state_hash() after the last tick
  uint64_t recorded_hash = 0;      // the stream's end record
  uint64_t conditioner_rejected = 0;
  uint64_t world_rejected = 0;
  NoiseStats noise;
  double sim_seconds = 0;
  bool finite = true;              // every position stayed finite
};

ReplayResult replay_pose_stream(const PoseStream& stream, const ReplayOptions& options);

struct RecordResult {
  uint64_t ticks = 0, records = 0, hash = 0;
  double sim_seconds = 0;
};

// Runs the two-hand table script (engine/scripted_manipulation.h) for `seconds` of sim time (<= 0: the
// script's length plus 1 s to settle), its hands passing through `noise` (none: clean), and writes
// every input to `path`.
RecordResult record_scripted_session(const std::string& path, double seconds, double tick_hz,
                                     const NoiseProfile& noise, uint64_t seed);

}  // namespace weft
