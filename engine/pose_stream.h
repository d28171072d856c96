#pragma once
// Pose streams (issue 7): every input sample of a session, with the tick at which it entered the sim,
// in a JSON-lines file that `weft replay` re-runs bit for bit. Format: docs/pose_stream.md.
#include <cstdint>
#include <cstdio>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/json_error.h"
#include "engine/tool_action.h"
#include "sim/pose.h"

namespace weft {

// The first line: what scene the session ran on, so a replay can rebuild it and refuse another.
struct PoseStreamHeader {
  int version = 2;
  std::string scene;            // the scene's name (free text)
  std::string scene_file;       // path of the scene file as given to the recorder ("": the built-in table)
  uint64_t scene_hash = 0;      // FNV-1a of the scene file's bytes (engine/runtime.h scene_file_hash)
  std::string solver;           // the integrator the session ran ("approx", "cg", ...)
  int threads = 0;              // the solver's threads (sim.threads); 0: not recorded (older streams): the scene's
  std::string device;           // "gpu": recorded with the GPU step (docs/gpu.md); "": the CPU (not written)
  double tick_hz = 240;
  std::string source;           // free text: headless script, window, xr
};

enum class StreamRecordKind : uint8_t { Pose, Grab, Release, Reset, Attach, Detach, Edit, Sew };

// One line of the body: an input as it entered the pose path at tick `tick` (before the step of that tick).
struct StreamRecord {
  uint64_t tick = 0;
  StreamRecordKind kind = StreamRecordKind::Pose;
  PoseSample sample;       // pose: the sample; grab: pose in sample.pose, hand in sample.device
  float squeeze = 0;       // analog values of the controller, 0..1 (pose records)
  float trigger = 0;
  uint32_t buttons = 0;    // digital buttons, bit mask (pose records)
  float radius = 0;        // grab radius, m
  ToolAction tool;         // edit (cut, remove, scale) and sew records
};

// The last line: how many ticks the session ran and its final World::state_hash().
struct PoseStreamFooter {
  uint64_t ticks = 0;
  uint64_t hash = 0;
};

struct PoseStream {
  PoseStreamHeader header;
  std::vector<StreamRecord> records;  // ticks non-decreasing
  PoseStreamFooter footer;
};

// A corrupt or truncated stream: names the file, the 1-based line and the problem (`file:line: problem`).
class PoseStreamError : public JsonError {
 public:
  PoseStreamError(const std::string& file, size_t line, const std::string& problem) : JsonError(file, line, "", problem) {}
};

const char* device_name(Device d);

// Writes a stream line by line (flushed at finish and on destruction; a crash leaves a truncated file,
// which the reader reports). Throws std::runtime_error when the file cannot be opened or written.
class PoseStreamWriter {
 public:
  PoseStreamWriter(const std::string& path, const PoseStreamHeader& header);
  ~PoseStreamWriter();
  PoseStreamWriter(const PoseStreamWriter&) = delete;
  PoseStreamWriter& operator=(const PoseStreamWriter&) = delete;

  void write(const StreamRecord& record);
  void finish(const PoseStreamFooter& footer);
  uint64_t records_written() const { return records_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  uint64_t records_ = 0;
  bool finished_ = false;
};

// Reads a whole stream; throws PoseStreamError on any problem (bad JSON, missing or mistyped field,
// unknown device or record type, ticks going backwards, no header, no end line: truncated).
PoseStream read_pose_stream(const std::string& path);
PoseStream parse_pose_stream(std::istream& in, const std::string& name);

}  // namespace weft
