#include "engine/stream_replay.h"

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "engine/noisy_input.h"
#include "engine/tool_script.h"

namespace weft {
namespace {

double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string hex(uint64_t v) {
  char s[17];
  std::snprintf(s, sizeof s, "%016" PRIx64, v);
  return s;
}

bool all_finite(const World& w) {
  for (const glm::vec3& x : w.state().position)
    if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z)) return false;
  return true;
}

Hand hand_of(Device d) { return d == Device::LeftHand ? Hand::Left : Hand::Right; }

}  // namespace

ProgressLine::ProgressLine(std::string label, uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled), start_(wall_now()), last_(start_) {}

void ProgressLine::update(uint64_t done) {
  if (!enabled_) return;
  const double now = wall_now();
  if (now - last_ < 1.0) return;
  last_ = now;
  printed_ = true;
  std::fprintf(stderr, "%s: tick %" PRIu64 "/%" PRIu64 " (%.0f %%, %.1f s)\n", label_.c_str(), done, total_,
               total_ ? 100.0 * double(done) / double(total_) : 100.0, now - start_);
}

void ProgressLine::finish() {
  if (enabled_ && printed_)
    std::fprintf(stderr, "%s: done, %" PRIu64 " ticks in %.1f s\n", label_.c_str(), total_, wall_now() - start_);
}

TwoHandScript script_for(const SceneInfo& scene) {
  TwoHandScript script(scene.near_corner_rest[0], scene.near_corner_rest[1]);
  if (!scene.scripted_demo) script.make_idle();
  return script;
}

void feed_script(Runtime& runtime, TwoHandScript& script, InputSink& sink, uint64_t to) {
  const double hz = runtime.scene().tick_hz;
  SnapshotBuffer& snapshots = runtime.snapshots();
  const auto& corners = runtime.scene().near_corners;
  for (uint64_t k = runtime.fed_ticks(); k < to; ++k) {
    runtime.begin_tick(k);
    if (!script.grabbed() && snapshots.update()) {  // the snapshot of tick k (begin_tick waited for it)
      const ClothSnapshot& s = snapshots.read_buffer();
      script.track_corners(s.position[corners[0]], s.position[corners[1]]);
    }
    script.drive(double(k) / hz, sink);
    runtime.end_tick(k);
  }
}

ReplayResult replay_pose_stream(const PoseStream& stream, const ReplayOptions& options) {
  const PoseStreamHeader& h = stream.header;
  const std::string scene_file = options.use_scene_override ? options.scene_file : h.scene_file;
  RuntimeOptions ro;
  ro.scene_file = scene_file;
  ro.solver = options.solver.empty() ? h.solver : options.solver;
  ro.threads = options.threads > 0 ? options.threads : h.threads;
  ro.device = options.device.empty() ? h.device : options.device;  // the recording's device unless told
  ro.tick_hz = h.tick_hz;
  ro.lockstep = true;
  ro.condition_poses = options.condition_poses;
  ro.conditioning = options.conditioning;
  ro.tick_hook = options.tick_hook;
  Runtime runtime(ro);
  if (runtime.scene().content_hash != h.scene_hash) {
    const std::string recorded = h.scene_file.empty() ? "the built-in table scene" : "'" + h.scene_file + "'";
    const std::string here = scene_file.empty() ? "the built-in table scene" : "'" + scene_file + "'";
    throw std::runtime_error("the stream was recorded on " + recorded + " (content hash " + hex(h.scene_hash) +
                             "), but " + here + " has content hash " + hex(runtime.scene().content_hash) +
                             ": refusing to replay on a different scene (--scene picks the right file)");
  }
  NoisyInput noisy(runtime.input(), options.noise, options.seed);
  noisy.enabled = options.noise.any();
  InputSink& sink = noisy;
  ReplayResult out;
  out.scene_file = scene_file;
  out.threads = runtime.scene().threads;
  out.device = runtime.scene().device;
  out.device_name = runtime.scene().device_name;
  out.device_reason = runtime.scene().device_reason;
  ProgressLine progress("weft: replay", stream.footer.ticks, options.progress && stream.footer.ticks > 2400);
  runtime.start();
  size_t next = 0;
  for (uint64_t k = 0; k < stream.footer.ticks; ++k) {
    // Tick k's records apply at boundary k exactly: wait until the sim is there, as the recording was.
    runtime.begin_tick(k);
    for (; next < stream.records.size() && stream.records[next].tick <= k; ++next) {
      const StreamRecord& r = stream.records[next];
      switch (r.kind) {
        case StreamRecordKind::Pose: sink.submit_pose(r.sample); break;
        case StreamRecordKind::Grab: sink.grab(hand_of(r.sample.device), r.sample.pose, r.radius); break;
        case StreamRecordKind::Release: sink.release(hand_of(r.sample.device)); break;
        case StreamRecordKind::Reset: sink.reset(); break;
        case StreamRecordKind::Attach: sink.attach(r.sample.device, r.sample.pose, r.radius); break;
        case StreamRecordKind::Detach: sink.detach(r.sample.device); break;
        case StreamRecordKind::Edit:
        case StreamRecordKind::Sew: sink.tool(r.tool); break;
      }
    }
    runtime.end_tick(k);
    if ((k & 63) == 0) progress.update(k);
  }
  runtime.run_to(stream.footer.ticks);
  runtime.stop();
  progress.finish();
  out.ticks = runtime.stats().ticks;
  out.records = next;
  out.hash = runtime.world().state_hash();
  out.recorded_hash = stream.footer.hash;
  out.noise = noisy.noise().stats();
  out.sim_seconds = runtime.world().state().time;
  out.finite = all_finite(runtime.world());
  out.stats = runtime.stats();
  out.mesh_check = runtime.scene().mesh_check;
  return out;
}

void feed_tool_script(Runtime& runtime, ToolScript& script, InputSink& sink, uint64_t to) {
  const double hz = runtime.scene().tick_hz;
  SnapshotBuffer& snapshots = runtime.snapshots();
  for (uint64_t k = runtime.fed_ticks(); k < to; ++k) {
    runtime.begin_tick(k);
    snapshots.update();
    if (snapshots.has_value()) script.drive(double(k) / hz, snapshots.read_buffer(), sink);
    runtime.end_tick(k);
  }
}

RecordResult record_scripted_session(const std::string& path, const RecordOptions& o) {
  RuntimeOptions ro;
  ro.scene_file = o.scene_file;
  ro.solver = o.solver;
  ro.threads = o.threads;
  ro.device = o.device;
  ro.tick_hz = o.tick_hz;
  ro.lockstep = true;
  ro.record = true;
  Runtime runtime(ro);
  const bool tools = o.script == SessionScript::Tools;
  PoseStreamWriter writer(path, runtime.stream_header(tools ? "headless tool script" : "headless two-hand script"));
  NoisyInput noisy(runtime.input(), o.noise, o.seed);
  noisy.enabled = o.noise.any();
  TwoHandScript script = script_for(runtime.scene());
  ToolScript tool_script;
  const double seconds = o.seconds > 0 ? o.seconds : (tools ? tool_script.duration() : script.duration()) + 1.0;
  const uint64_t ticks = uint64_t(std::llround(seconds * runtime.scene().tick_hz));
  ProgressLine progress("weft: record", ticks, ticks > 2400);
  runtime.start();
  for (uint64_t k = 0; k < ticks; k += 64) {
    if (tools) feed_tool_script(runtime, tool_script, noisy, std::min(ticks, k + 64));
    else feed_script(runtime, script, noisy, std::min(ticks, k + 64));
    runtime.drain_input_log(writer);
    progress.update(k);
  }
  runtime.run_to(ticks);
  runtime.stop();
  runtime.drain_input_log(writer);
  progress.finish();
  RecordResult out;
  out.stats = runtime.stats();
  out.mesh_check = runtime.scene().mesh_check;
  if (out.stats.input_log_dropped > 0)
    throw std::runtime_error("recording lost " + std::to_string(out.stats.input_log_dropped) + " inputs");
  out.ticks = out.stats.ticks;
  out.records = writer.records_written();
  out.hash = runtime.world().state_hash();
  out.sim_seconds = runtime.world().state().time;
  writer.finish({out.ticks, out.hash});
  return out;
}

}  // namespace weft
