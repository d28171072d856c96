#include "app/run_summary.h"

#include <cinttypes>
#include <cstdio>

#include "gpu/gpu_integrator.h"

namespace weft::app {

std::string hex64(uint64_t v) {
  char s[17];
  std::snprintf(s, sizeof s, "%016" PRIx64, v);
  return s;
}

// The keys every stream summary has.
static nlohmann::json stream_counters(const TickStats& st) {
  return {{"edge_strain_max", st.stream.edge_strain_max},
          {"edge_strain_p99", st.stream.edge_strain_p99},
          {"edge_strain_end", st.stream.edge_strain_end},
          {"kinetic_energy_peak_j", st.stream.kinetic_energy_peak},
          {"vertex_speed_peak_m_s", st.stream.vertex_speed_peak},
          {"nonfinite_ticks", st.stream.nonfinite_ticks},
          {"speed_clamps", st.speed_clamps},
          {"energy_clamps", st.energy_clamps},
          {"grasp_saturated_ticks", st.grasp_saturated},
          {"grasp_sliding_ticks", st.grasp_sliding},
          {"height_span_end_m", st.stream.height_span_end},
          {"grabs", st.grabs},
          {"held_vertices_min", st.held_vertices_min},
          {"held_vertices_max", st.held_vertices_max},
          {"grab_misses", st.grab_misses},
          {"releases", st.releases},
          {"poses_applied", st.poses_applied},
          {"poses_rejected", st.poses_invalid + st.poses_conditioned_out},
          {"poses_rejected_conditioning", st.poses_conditioned_out},
          {"poses_rejected_world", st.poses_invalid},
          {"poses_overwritten", st.poses_overwritten},
          {"events_applied", st.events_applied},
          {"events_late", st.events_late},
          {"events_rejected", st.events_rejected},
          {"edits_applied", st.edits_applied},
          {"edits_refused", st.edits_refused},
          {"sews_applied", st.sews_applied},
          {"sews_refused", st.sews_refused},
          {"sews_clipped", st.sews_clipped},
          {"topology_changes", st.topology_changes},
          {"edit_ms_max", st.edit_ms_max}};
}

nlohmann::json stream_summary(const TickStats& st) {
  nlohmann::json out = stream_counters(st);
  if (st.seam_pairs > 0) {  // a scene with seams (sim/seam.h)
    out["seam_gap_max_m"] = {{"end", st.seam_gap_end}, {"worst", st.seam_gap_worst}, {"worst_sewn", st.seam_gap_worst_sewn}};
    out["seam_pairs"] = st.seam_pairs;
    out["seams_sewn"] = st.seams_sewn;
    out["seams_sewn_tick"] = st.seams_sewn_tick;
  }
  // Only where the scene has a body or hand colliders (sim/collider.h body_penetration).
  if (st.has_body) {
    out["body_penetration_max_m"] = {{"end", st.body_penetration_end_m}, {"worst", st.body_penetration_max_m}};
  }
  return out;
}

nlohmann::json mesh_check_summary(const std::vector<std::pair<std::string, size_t>>& counts) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [kind, count] : counts) out[kind] = count;
  return out;
}

nlohmann::json self_collision_summary(const TickStats& st) {
  return {{"ms", {{"p50", st.self_ms_p50}, {"p99", st.self_ms_p99}, {"max", st.self_ms_max}}},
          {"contacts_max", st.self_contacts_max},
          {"contacts_mean", st.ticks > 0 ? double(st.self_contacts_sum) / double(st.ticks) : 0.},
          {"zones_max", st.self_zones_max},
          {"largest_zone", st.self_largest_zone_max},
          {"intersecting_pairs_max", st.self_intersecting_max},
          {"intersecting_pairs_end", st.self_intersecting_end},
          {"tangled_at_load", st.self_tangled_at_scan},
          {"tangled_later", st.self_tangled_later},
          {"untangle_moves", st.self_untangle_moves},
          {"capped_ticks", st.self_capped_ticks}};
}

// The GPU step's mean GPU time per tick by stage (timestamps), ms; null when the CPU stepped.
static nlohmann::json gpu_stage_summary(const World& world) {
  const auto* gpu = dynamic_cast<const GpuIntegrator*>(&world.integrator());
  if (!gpu || gpu->timed_steps() == 0) return nullptr;
  const GpuStageTimes& s = gpu->stage_time_sums();
  const double n = double(gpu->timed_steps());
  return {{"ticks", gpu->timed_steps()}, {"upload", s.upload / n},     {"forces", s.forces / n},
          {"solve", s.solve / n},        {"download", s.download / n}, {"total", s.total() / n}};
}

nlohmann::json run_summary(const std::string& mode, const Runtime& runtime, const FrameStats& frames) {
  const TickStats st = runtime.stats();
  const SceneInfo& scene = runtime.scene();
  auto hist = [](const LatencyHistogram& h) {
    return nlohmann::json{{"p50", h.percentile(0.5)}, {"p99", h.percentile(0.99)}, {"max", h.max()}};
  };
  nlohmann::json out = {
      {"mode", mode},
      {"scene", scene.name},
      {"scene_file", scene.file},
      {"solver", scene.solver},
      {"threads", scene.threads},
      {"device", scene.device},
      {"device_name", scene.device_name},
      {"device_reason", scene.device_reason},
      {"tick_hz", scene.tick_hz},
      {"vertices", scene.vertices},
      {"sim_priority", sim_priority_name(SimPriority(st.priority))},
      {"ticks", st.ticks},
      {"sim_time_s", double(st.ticks) / scene.tick_hz},
      {"skipped_ticks", st.skipped_ticks},
      {"step_ms", {{"p50", st.step_ms_p50}, {"p99", st.step_ms_p99}, {"max", st.step_ms_max}}},
      {"lateness_ms", {{"p50", st.lateness_ms_p50}, {"p99", st.lateness_ms_p99}, {"max", st.lateness_ms_max}}},
      {"publish_ms", {{"p50", st.publish_ms_p50}, {"p99", st.publish_ms_p99}}},
      {"frames", frames.frames},
      {"wall_s", frames.wall_s},
      {"fps", frames.wall_s > 0 && frames.frames > 1 ? double(frames.frames - 1) / frames.wall_s : 0.0},
      {"frame_ms", hist(frames.frame_ms)},
      {"lag_ms", hist(frames.lag_ms)},
      {"stream", stream_summary(st)},
      {"state_hash", hex64(runtime.world().state_hash())},
  };
  out["mesh_check"] = mesh_check_summary(scene.mesh_check);
  if (runtime.world().self_collision()) out["self_collision"] = self_collision_summary(st);
  if (scene.device == "gpu") out["gpu_ms"] = gpu_stage_summary(runtime.world());
  return out;
}

void print_failsafe_notice(uint64_t speed_clamps, uint64_t energy_clamps) {
  if (speed_clamps == 0 && energy_clamps == 0) return;
  std::fprintf(stderr,
               "weft: the fail-safe engaged: %llu vertex speeds clamped, kinetic energy taken back on %llu ticks "
               "(sim/failsafe.h; a scene's \"sim\": {\"failsafe\": false} turns it off)\n",
               (unsigned long long)speed_clamps, (unsigned long long)energy_clamps);
}

std::string grasp_notice(uint64_t saturated, uint64_t sliding) {
  if (saturated == 0 && sliding == 0) return {};
  char line[256];
  std::snprintf(line, sizeof line,
                "weft: grasps yielded: held patches stopped at the saturation strain on %llu patch-ticks, released "
                "patches slid out of the grip on %llu (sim/grasp_saturation.h, sim/grasp_release.h)\n",
                (unsigned long long)saturated, (unsigned long long)sliding);
  return line;
}

std::string seam_notice(const nlohmann::json& stream) {
  if (!stream.contains("seam_gap_max_m")) return {};
  const auto& gap = stream["seam_gap_max_m"];
  const uint64_t tick = stream["seams_sewn_tick"].get<uint64_t>();
  char line[256];
  int n = std::snprintf(line, sizeof line, "weft: seams: %llu of %llu pairs sewn",
                        (unsigned long long)stream["seams_sewn"].get<uint64_t>(),
                        (unsigned long long)stream["seam_pairs"].get<uint64_t>());
  if (tick) n += std::snprintf(line + n, sizeof line - size_t(n), " (all after tick %llu)", (unsigned long long)tick);
  n += std::snprintf(line + n, sizeof line - size_t(n), "; largest gap %.2f mm at the end, %.2f mm at worst",
                     1e3 * gap["end"].get<double>(), 1e3 * gap["worst"].get<double>());
  if (tick) n += std::snprintf(line + n, sizeof line - size_t(n), ", %.2f mm once sewn", 1e3 * gap["worst_sewn"].get<double>());
  std::snprintf(line + n, sizeof line - size_t(n), "\n");
  return line;
}

void print_stream_notices(const nlohmann::json& stream) {
  if (stream.contains("body_penetration_max_m"))
    std::fprintf(stderr, "weft: body penetration: %.2f mm at the worst tick, %.2f mm at the end\n",
                 1e3 * stream["body_penetration_max_m"]["worst"].get<double>(),
                 1e3 * stream["body_penetration_max_m"]["end"].get<double>());
  print_failsafe_notice(stream["speed_clamps"].get<uint64_t>(), stream["energy_clamps"].get<uint64_t>());
  std::fputs(grasp_notice(stream["grasp_saturated_ticks"].get<uint64_t>(), stream["grasp_sliding_ticks"].get<uint64_t>())
                 .c_str(),
             stderr);
  std::fputs(seam_notice(stream).c_str(), stderr);
}

void print_device_line(const std::string& device, const std::string& name, const std::string& reason) {
  if (device == "gpu")
    std::fprintf(stderr, "weft: step on gpu: %s (%s; stages 3, 4 and 6 on the GPU, 1-2, 5 and 7 on the CPU, docs/gpu.md)\n", name.c_str(),
                 reason.c_str());
  else
    std::fprintf(stderr, "weft: step on cpu (%s)\n", reason.c_str());
}

void print_run_summary(const nlohmann::json& j) {
  const auto& s = j["stream"];
  std::fprintf(stderr,
               "weft: %s on '%s' (%s, %zu vertices): %llu ticks, step p99 %.3f ms, lateness p99 %.3f ms, "
               "%llu skipped; %llu frames, frame p99 %.1f ms\n"
               "weft: max edge strain %.1f %% (p99 %.1f %%, at the end %.1f %%), peak kinetic energy %.3g J, "
               "peak speed %.2f m/s, "
               "%llu grabs (%llu caught nothing), %llu poses rejected\n",
               j["mode"].get<std::string>().c_str(), j["scene"].get<std::string>().c_str(),
               j["solver"].get<std::string>().c_str(), j["vertices"].get<size_t>(),
               (unsigned long long)j["ticks"].get<uint64_t>(), j["step_ms"]["p99"].get<double>(),
               j["lateness_ms"]["p99"].get<double>(), (unsigned long long)j["skipped_ticks"].get<uint64_t>(),
               (unsigned long long)j["frames"].get<uint64_t>(), j["frame_ms"]["p99"].get<double>(),
               100 * s["edge_strain_max"].get<double>(), 100 * s["edge_strain_p99"].get<double>(),
               100 * s["edge_strain_end"].get<double>(),
               s["kinetic_energy_peak_j"].get<double>(), s["vertex_speed_peak_m_s"].get<double>(),
               (unsigned long long)s["grabs"].get<uint64_t>(), (unsigned long long)s["grab_misses"].get<uint64_t>(),
               (unsigned long long)s["poses_rejected"].get<uint64_t>());
  print_stream_notices(s);
  if (j.contains("self_collision")) {
    const auto& c = j["self_collision"];
    std::fprintf(stderr,
                 "weft: self-collision %.3f ms p50, %.3f ms p99; contacts up to %llu (mean %.0f), zones up to %llu "
                 "(largest %llu vertices), tangled pairs %llu at load and %llu at the end (%llu untangling vertex moves), "
                 "%llu capped ticks\n",
                 c["ms"]["p50"].get<double>(), c["ms"]["p99"].get<double>(),
                 (unsigned long long)c["contacts_max"].get<uint64_t>(), c["contacts_mean"].get<double>(),
                 (unsigned long long)c["zones_max"].get<uint64_t>(), (unsigned long long)c["largest_zone"].get<uint64_t>(),
                 (unsigned long long)c["tangled_at_load"].get<uint64_t>(),
                 (unsigned long long)c["intersecting_pairs_end"].get<uint64_t>(),
                 (unsigned long long)c["untangle_moves"].get<uint64_t>(),
                 (unsigned long long)c["capped_ticks"].get<uint64_t>());
  }
}

}  // namespace weft::app
