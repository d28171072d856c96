#include "engine/stream_replay.h"

#include <cmath>

#include "engine/noisy_input.h"
#include "engine/recording_input.h"
#include "engine/scripted_manipulation.h"
#include "engine/table_session.h"

namespace weft {
namespace {

bool all_finite(const World& w) {
  for (const glm::vec3& x : w.state().position)
    if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z)) return false;
  return true;
}

void apply_record(const StreamRecord& r, InputSink& sink, TableSession& session) {
  switch (r.kind) {
    case StreamRecordKind::Pose: sink.submit_pose(r.sample); break;
    case StreamRecordKind::Grab: sink.grab(r.sample.device == Device::LeftHand ? Hand::Left : Hand::Right, r.sample.pose, r.radius); break;
    case StreamRecordKind::Release: sink.release(r.sample.device == Device::LeftHand ? Hand::Left : Hand::Right); break;
    case StreamRecordKind::Reset: session.reset(); break;
  }
}

}  // namespace

ReplayResult replay_pose_stream(const PoseStream& stream, const ReplayOptions& options) {
  TableSession session(stream.header, options.conditioning);
  NoisyInput noisy(session.input(), options.noise, options.seed);
  noisy.enabled = options.noise.any();
  ReplayResult out;
  size_t next = 0;
  for (uint64_t k = 0; k < stream.footer.ticks; ++k) {
    for (; next < stream.records.size() && stream.records[next].tick <= k; ++next)
      apply_record(stream.records[next], noisy, session);
    session.step();
  }
  out.ticks = session.tick();
  out.records = next;
  out.hash = session.world().state_hash();
  out.recorded_hash = stream.footer.hash;
  out.conditioner_rejected = session.input().conditioner().rejected();
  out.world_rejected = session.world().invalid_pose_count();
  out.noise = noisy.noise().stats();
  out.sim_seconds = session.world().state().time;
  out.finite = all_finite(session.world());
  return out;
}

RecordResult record_scripted_session(const std::string& path, double seconds, double tick_hz,
                                     const NoiseProfile& noise, uint64_t seed) {
  TableSceneSpec spec;
  spec.tick_hz = tick_hz;
  const PoseStreamHeader header = TableSession::header_for(spec, "headless two-hand script");
  TableSession session(header);
  PoseStreamWriter writer(path, header);
  RecordingInput recorder(session.input(), writer, session.tick_counter());
  NoisyInput noisy(recorder, noise, seed);
  noisy.enabled = noise.any();
  const DemoScene& scene = session.scene();
  TwoHandScript script(scene.world.model().rest_position[scene.near_corners[0]],
                       scene.world.model().rest_position[scene.near_corners[1]]);
  if (seconds <= 0) seconds = script.duration() + 1.0;
  const uint64_t ticks = uint64_t(std::llround(seconds * tick_hz));
  for (uint64_t k = 0; k < ticks; ++k) {
    script.drive(session.world().state().time, noisy);
    session.step();
  }
  RecordResult out;
  out.ticks = session.tick();
  out.records = writer.records_written();
  out.hash = session.world().state_hash();
  out.sim_seconds = session.world().state().time;
  writer.finish({out.ticks, out.hash});
  return out;
}

}  // namespace weft
