// `weft replay FILE`: re-runs a recorded pose stream deterministically, as fast as the sim runs (no
// rendering), and prints the final state hash; optionally with extra noise on the recorded samples.
#include <chrono>
#include <cinttypes>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/run_summary.h"
#include "engine/stream_replay.h"
#include "gpu/gpu_integrator.h"
#include "sim/self_collision.h"
#include "sim/strain_limit.h"
#include "sim/world.h"

namespace weft::app {
namespace {

struct ReplayCliOptions {
  std::string file;
  std::string scene;
  bool scene_given = false;
  std::string solver;
  int threads = 0;
  std::string device;
  std::string noise = "none";
  uint64_t seed = 1;
  bool json = false;
  bool no_conditioning = false;
  bool one_euro = false;
  std::string trace;  // per-tick CSV
};

// One row of --trace, taken on the sim thread after each tick.
struct TraceRow {
  uint64_t tick;
  StepTiming timing;
  int iterations;
  uint64_t self_contacts;
  uint64_t self_pairs;     // triangle pairs whose bounds overlapped (the broad phase's output)
  float edge_strain_max;   // the most stretched edge after the tick
  uint32_t edge;           // which edge
  uint8_t edge_held;       // how many of its ends are kinematic (held, pinned)
  float speed_max;         // the fastest vertex, m/s
  float seam_gap_max;      // the largest seam gap, m (0: no seams)
  uint32_t seams_sewn;     // seam pairs sewn
  uint64_t tangled;        // triangle pairs left out as crossing at the step's start
  uint64_t untangled;      // vertices moved to shorten the crossings
  uint32_t speed_clamps;   // vertex speeds the fail-safe clamped this tick
  glm::vec3 edge_at;       // the most stretched edge's midpoint, m
  GpuStageTimes gpu;       // the GPU step's stage times this tick, ms (timestamps; 0 when the CPU stepped)
};

void trace_tick(const World& world, uint64_t ticks_done, void* context) {
  auto& rows = *static_cast<std::vector<TraceRow>*>(context);
  const SelfCollision* sc = world.self_collision();
  const ClothState& state = world.state();
  const EdgeStrainPeak peak = most_stretched_edge(world.model(), state.position.data());
  float speed2 = 0.f;
  for (const glm::vec3& v : state.velocity) speed2 = std::max(speed2, glm::dot(v, v));
  const auto& ends = world.model().link[peak.edge];
  const SelfCollisionStats none;
  const SelfCollisionStats& self = sc ? sc->stats() : none;
  const auto* gpu = dynamic_cast<const GpuIntegrator*>(&world.integrator());
  rows.push_back({ticks_done - 1, world.last_timing(), world.integrator_stats().solver_iterations,
                  self.vertex_triangle + self.edge_edge, self.candidate_pairs + self.separated,
                  std::max(peak.strain, 0.f), peak.edge,
                  uint8_t((state.kinematic[ends[0]] ? 1 : 0) + (state.kinematic[ends[1]] ? 1 : 0)), std::sqrt(speed2),
                  world.step_report().seams.gap_max, world.step_report().seams.sewn, self.intersecting_pairs,
                  self.untangled_vertices, uint32_t(world.failsafe_stats().speed_clamps),
                  0.5f * (state.position[ends[0]] + state.position[ends[1]]), gpu ? gpu->stage_times() : GpuStageTimes{}});
}

void write_trace(const std::string& path, const std::vector<TraceRow>& rows) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw std::runtime_error("cannot write the trace file '" + path + "'");
  std::fprintf(f, "tick,step_ms,elastic_ms,integrator_ms,strain_ms,collision_ms,self_collision_ms,iterations,self_contacts,self_pairs,edge_strain_max,edge,edge_kinematic_ends,speed_max,seam_gap_max,seams_sewn,tangled_pairs,untangled_vertices,speed_clamps,edge_x,edge_y,edge_z,gpu_upload_ms,gpu_forces_ms,gpu_solve_ms,gpu_download_ms\n");
  for (const TraceRow& r : rows)
    std::fprintf(f, "%" PRIu64 ",%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%" PRIu64 ",%" PRIu64 ",%.5f,%u,%u,%.4f,%.5f,%u,%" PRIu64 ",%" PRIu64 ",%u,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", r.tick, r.timing.total_ms,
                 r.timing.elastic_ms, r.timing.integrator_ms, r.timing.strain_ms, r.timing.collision_ms,
                 r.timing.self_collision_ms, r.iterations, r.self_contacts, r.self_pairs, r.edge_strain_max, r.edge,
                 unsigned(r.edge_held), r.speed_max, r.seam_gap_max, r.seams_sewn, r.tangled, r.untangled,
                 r.speed_clamps, r.edge_at.x, r.edge_at.y, r.edge_at.z, r.gpu.upload, r.gpu.forces, r.gpu.solve,
                 r.gpu.download);
  std::fclose(f);
}

std::string hex(uint64_t v) {
  char s[17];
  std::snprintf(s, sizeof s, "%016" PRIx64, v);
  return s;
}

int replay(const ReplayCliOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const PoseStream stream = read_pose_stream(o.file);
  ReplayOptions options;
  options.noise = noise_profile(o.noise);
  options.seed = o.seed;
  options.condition_poses = !o.no_conditioning;
  options.conditioning.one_euro.enabled = o.one_euro;
  options.use_scene_override = o.scene_given;
  options.scene_file = o.scene;
  options.solver = o.solver;
  options.threads = o.threads;
  options.device = o.device;
  std::vector<TraceRow> trace;
  if (!o.trace.empty()) {
    trace.reserve(stream.footer.ticks + 16);
    options.tick_hook.observe = &trace_tick;
    options.tick_hook.observe_context = &trace;
  }
  const std::string& scene = o.scene_given ? o.scene : stream.header.scene_file;
  std::fprintf(stderr, "weft: replaying %zu records over %" PRIu64 " ticks on %s (%s)\n", stream.records.size(),
               stream.footer.ticks, scene.empty() ? "the built-in table" : scene.c_str(),
               o.solver.empty() ? stream.header.solver.c_str() : o.solver.c_str());
  const ReplayResult r = replay_pose_stream(stream, options);
  print_device_line(r.device, r.device_name, r.device_reason);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!o.trace.empty()) write_trace(o.trace, trace);
  // The recorded hash is only comparable when the replay adds nothing to the recording.
  const bool comparable = !options.noise.any() && !o.no_conditioning && !o.one_euro &&
                          (o.solver.empty() || o.solver == stream.header.solver) &&
                          (o.threads == 0 || o.threads == stream.header.threads) &&
                          (o.device.empty() || o.device == (stream.header.device.empty() ? "cpu" : stream.header.device));
  const bool matches = r.hash == r.recorded_hash;
  if (o.json) {
    nlohmann::json j = {{"file", o.file},
                        {"ticks", r.ticks},
                        {"records", r.records},
                        {"sim_s", r.sim_seconds},
                        {"wall_s", wall},
                        {"speedup", wall > 0 ? r.sim_seconds / wall : 0.0},
                        {"state_hash", hex(r.hash)},
                        {"recorded_hash", hex(r.recorded_hash)},
                        {"matches_recording", comparable ? nlohmann::json(matches) : nlohmann::json(nullptr)},
                        {"finite", r.finite},
                        {"noise", options.noise.name},
                        {"seed", o.seed},
                        {"scene_file", r.scene_file},
                        {"solver", o.solver.empty() ? stream.header.solver : o.solver},
                        {"threads", r.threads},
                        {"device", r.device},
                        {"device_name", r.device_name},
                        {"device_reason", r.device_reason},
                        {"noise_spikes", r.noise.spikes},
                        {"noise_dropped", r.noise.dropped},
                        {"mesh_check", mesh_check_summary(r.mesh_check)},
                        {"stream", stream_summary(r.stats)}};
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf("state hash %s after %" PRIu64 " ticks (%.2f s sim in %.2f s wall)\n", hex(r.hash).c_str(), r.ticks,
                r.sim_seconds, wall);
    if (comparable) std::printf("recording's hash %s: %s\n", hex(r.recorded_hash).c_str(), matches ? "match" : "MISMATCH");
    const StreamMetrics& m = r.stats.stream;
    std::printf("rejected poses: %" PRIu64 " by conditioning, %" PRIu64 " by the world\n",
                r.stats.poses_conditioned_out, r.stats.poses_invalid);
    std::printf("edge strain max %.2f %%, p99 %.2f %%; peak kinetic energy %.4g J; peak vertex speed %.3f m/s; "
                "%" PRIu64 " grabs (%" PRIu64 " caught nothing)\n",
                100 * m.edge_strain_max, 100 * m.edge_strain_p99, m.kinetic_energy_peak, m.vertex_speed_peak,
                r.stats.grabs, r.stats.grab_misses);
  }
  print_stream_notices(stream_summary(r.stats));
  if (!r.finite) return 1;
  return comparable && !matches ? 1 : 0;
}

}  // namespace

void register_replay(CLI::App& app) {
  auto o = std::make_shared<ReplayCliOptions>();
  auto* cmd = app.add_subcommand("replay", "Re-run a recorded pose stream deterministically and print the state hash");
  cmd->add_option("file", o->file, "Pose stream file (from weft record)")->required();
  cmd->add_option("--scene", o->scene, "Replay on this scene file (default: the one the stream names); must have "
                                     "the recorded content")
      ->each([o](const std::string&) { o->scene_given = true; });
  cmd->add_option("--solver", o->solver, "Replay with another integrator (the hash then differs)");
  cmd->add_option("--device", o->device, "Replay on this device: cpu | gpu | auto (default: the scene's sim.device; "
                                       "another device than the recording's gives another hash)")
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  cmd->add_option("--threads", o->threads, "Replay with the solver on this many threads, 1 or 2 (default: the recorded "
                                         "number; another one may change the hash)")
      ->check(CLI::Range(1, 2));
  cmd->add_option("--noise", o->noise, "Add this noise profile to the recorded samples");
  cmd->add_option("--seed", o->seed, "Noise seed");
  cmd->add_flag("--no-conditioning", o->no_conditioning, "Feed samples to the World without input conditioning");
  cmd->add_flag("--one-euro", o->one_euro, "Enable the One Euro filter in the conditioning");
  cmd->add_flag("--json", o->json, "Print a JSON summary on stdout");
  cmd->add_option("--trace", o->trace, "Write a per-tick CSV (phase times in ms, the GPU step's stage times with --device gpu, solver iterations, self contacts) to this file");
  cmd->callback([o] {
    if (const int rc = replay(*o); rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace weft::app
