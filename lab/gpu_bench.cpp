#include "lab/gpu_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "engine/material_loader.h"
#include "engine/runtime.h"
#include "gpu/gpu_contact_stage.h"
#include "gpu/gpu_integrator.h"
#include "gpu/gpu_multigrid.h"
#include "gpu/gpu_self_contacts.h"
#include "gpu/step_device.h"

namespace weft::lab {
namespace {

uint32_t quads_for(const std::string& size) {
  if (size == "1k") return 31;     // 1 024 vertices
  if (size == "4k") return 63;     // 4 096
  if (size == "16k") return 127;   // 16 384
  if (size == "64k") return 255;   // 65 536
  if (size == "256k") return 511;  // 262 144
  throw std::invalid_argument("gpu bench size '" + size + "': expected 1k, 4k, 16k, 64k or 256k");
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

nlohmann::json bench_gpu_step(const GpuBenchOptions& options) {
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& size : options.sizes) {
    const uint32_t quads = quads_for(size);
    Scene scene = hanging_grid_scene(quads);
    if (!options.material.empty()) scene.material = load_material_preset(options.material);
    scene.hand_colliders.enabled = false;  // on by default since issue 37; the GPU step has no colliders yet
    scene.world.device = parse_step_device(options.device);
    const StepDeviceChoice choice = choose_step_device(scene, options.validation);
    if (!choice.gpu) throw StepDeviceRefused("gpu bench: " + choice.reason);
    if (!choice.warning.empty()) std::fprintf(stderr, "weft: warning: %s\n", choice.warning.c_str());
    use_step_device(choice, scene.world);
    {
      GpuStepOptions go;
      go.multigrid = options.preconditioner == "mg";
      go.chebyshev = options.preconditioner == "chebyshev";
      if (options.chebyshev_iterations > 0) go.chebyshev_iterations = options.chebyshev_iterations;
      if (options.mg_coarse_nodes >= 0) go.mg_coarse_nodes = uint32_t(options.mg_coarse_nodes);
      go.one_submit = options.submits == 1;
      std::shared_ptr<ComputeContext> ctx = choice.context;
      scene.world.make_custom_integrator = [ctx, go](const ClothModel& m, const SolverOptions& o) {
        return std::make_unique<GpuIntegrator>(ctx, m, o, go);
      };
    }
    World world = build_world(scene);
    const auto* gpu = dynamic_cast<const GpuIntegrator*>(&world.integrator());
    if (!gpu) throw std::logic_error("gpu bench: the world does not run the GPU step");
    // Two hands take the lower corners and lift them 30 cm and apart over the run.
    const uint32_t corner[2] = {0, quads};
    glm::vec3 start[2];
    for (int h = 0; h < 2; ++h) {
      start[h] = world.state().position[corner[h]];
      Pose p;
      p.position = start[h];
      world.grab(Hand(h), p, 0.05f);
    }
    std::vector<double> upload, forces, solve, download, total, wall, iterations, residual;
    std::vector<double> elastics, integrate, corrections;  // the world's own stage timing (StepTiming), CPU wall ms
    std::vector<double> first_sweeps, rounds;  // stage 4's convergence: its first limiting pass, its alternation
    const int warm = 4;
    uint64_t submits_at_warm = 0;
    for (int k = 0; k < warm + options.steps; ++k) {
      if (k == warm) submits_at_warm = gpu->submits();
      const double t = world.state().time, dt = world.time_step();
      const float s = float(std::min(1.0, (t + dt) / 0.5));
      for (int h = 0; h < 2; ++h) {
        PoseSample sample;
        sample.time = t + dt;
        sample.device = hand_device(Hand(h));
        sample.pose.position = start[h] + s * glm::vec3(h ? 0.15f : -0.15f, 0.3f, 0.f);
        world.submit_pose(sample);
      }
      const auto t0 = std::chrono::steady_clock::now();
      world.step();
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (k < warm) continue;
      const GpuStageTimes& g = gpu->stage_times();
      upload.push_back(g.upload), forces.push_back(g.forces), solve.push_back(g.solve);
      download.push_back(g.download), total.push_back(g.total()), wall.push_back(ms);
      const StepTiming& st = world.step_report().timing;
      elastics.push_back(st.elastic_ms), integrate.push_back(st.integrator_ms), corrections.push_back(st.correction_ms);
      iterations.push_back(world.integrator_stats().solver_iterations);
      residual.push_back(world.integrator_stats().residual);
      if (const GpuContactStage* c4 = gpu->contact_stage()) {
        first_sweeps.push_back(c4->first_sweeps());
        rounds.push_back(c4->alternation_passes());
      }
    }
    nlohmann::json r = {{"size", size},
                        {"material", options.material.empty() ? "springs" : options.material},
                        {"vertices", world.model().vertex_count()},
                        {"links", world.model().link_count_total()},
                        {"device", "gpu"},
                        {"device_name", choice.device_name},
                        {"device_is_cpu", !choice.warning.empty()},
                        {"steps", options.steps},
                        {"gpu_ms", {{"upload", median(upload)},
                                    {"forces", median(forces)},
                                    {"solve", median(solve)},
                                    {"download", median(download)},
                                    {"total", median(total)}}},
                        // What still runs on the CPU between the submits (stages 1-2: the grasps' elastics;
                        // stage 3's wall, the GPU's wait included; stages 4-7), and what crosses the bus for it.
                        {"cpu_ms", {{"elastics", median(elastics)},
                                    {"integrate_wall", median(integrate)},
                                    {"corrections", median(corrections)}}},
                        {"bytes_per_tick", {{"up", gpu->tick_upload_bytes()}, {"down", gpu->tick_download_bytes()}}},
                        // stage 4 in the step's submit (GpuStepOptions::one_submit) or its own
                        {"submits_per_tick", double(gpu->submits() - submits_at_warm) / std::max(1, options.steps)},
                        {"pcg_iterations_median", median(iterations)},
                        {"pcg_residual_median", median(residual)},
                        {"pcg_iterations_max", *std::max_element(iterations.begin(), iterations.end())},
                        {"pcg_residual_max", *std::max_element(residual.begin(), residual.end())},
                        {"preconditioner", options.preconditioner},
                        // Dependent dispatches in the recorded command buffer: per PCG iteration, and in all
                        // (every recorded iteration; those past convergence return at once).
                        {"dispatches_per_iteration", gpu->dispatches_per_iteration()},
                        {"dispatches_recorded", gpu->recorded_dispatches()},
                        // Stage 4's (tethers, limiter, colliders: its recorded maxima) and how far it went.
                        // (brief: a one-submit tick's, GpuStepOptions::brief_sweeps; whole: a two-submit tick's
                        // and a rerun's; 0: not recorded in this run)
                        {"stage4", {{"dispatches_recorded", gpu->contact_stage() ? gpu->contact_stage()->recorded_dispatches() : 0},
                                    {"dispatches_recorded_brief", gpu->contact_stage() ? gpu->contact_stage()->recorded_dispatches(true) : 0},
                                    {"reruns_whole", gpu->stage4_reruns()},
                                    {"first_pass_sweeps_median", first_sweeps.empty() ? 0.0 : median(first_sweeps)},
                                    {"first_pass_sweeps_max", first_sweeps.empty() ? 0.0 : *std::max_element(first_sweeps.begin(), first_sweeps.end())},
                                    {"alternation_passes_median", rounds.empty() ? 0.0 : median(rounds)},
                                    {"alternation_passes_max", rounds.empty() ? 0.0 : *std::max_element(rounds.begin(), rounds.end())}}},
                        {"wall_ms_per_tick_median", median(wall)},
                        {"finite", std::all_of(world.state().position.begin(), world.state().position.end(),
                                               [](const glm::vec3& p) { return std::isfinite(p.x + p.y + p.z); })}};
    // Stage 5's contact search (gpu/gpu_self_contacts.h) on the last state, against the CPU's detection: a
    // sanity check of its share of a tick until the response runs on the GPU too (docs/gpu.md).
    {
      const SelfCollisionConfig sc{};
      GpuSelfContacts search(choice.context, world.model(), sc);
      const auto& x = world.state().position;
      std::vector<glm::vec3> xp(x.size());
      for (size_t i = 0; i < x.size(); ++i) xp[i] = x[i] - float(world.time_step()) * world.state().velocity[i];
      std::vector<double> search_ms;
      for (int k = 0; k < 5; ++k) {
        search.detect(x.data(), xp.data(), world.state().kinematic.data());
        search_ms.push_back(search.stats().gpu_ms);
      }
      SelfCollision cpu(world.model(), sc);
      ClothState start = world.state(), now = world.state();
      start.position = xp;
      cpu.begin_step(start);
      const auto t0 = std::chrono::steady_clock::now();
      cpu.begin_resolve(world.model(), now, float(world.time_step()));
      const double cpu_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      r["self_search"] = {{"gpu_ms", median(search_ms)},
                          {"contacts", search.contacts().size()},
                          {"cpu_detect_ms", cpu_ms},
                          {"cpu_contacts", cpu.contacts().size()}};
      std::fprintf(stderr, "gpu bench %s: self-contact search %.3f ms on the GPU (%zu contacts), CPU detection %.3f ms (%zu)\n",
                   size.c_str(), median(search_ms), search.contacts().size(), cpu_ms, cpu.contacts().size());
    }
    if (const ComputeContext& c = gpu->context(); options.validation)
      r["validation_messages"] = c.validation_messages();
    std::fprintf(stderr,
                 "gpu bench %s (%zu vertices, %s) on %s: GPU %.3f ms/tick (upload %.3f, forces %.3f, solve %.3f, "
                 "download %.3f), %g PCG iterations (%s; at most %g; relative residual %.1e, at most %.1e), wall %.3f ms/tick (CPU: elastics %.3f, "
                 "stage 3 %.3f, corrections %.3f; %.1f kB up, %.1f kB down, %.2f submits a tick)\n",
                 size.c_str(), world.model().vertex_count(), options.material.empty() ? "springs" : options.material.c_str(),
                 choice.device_name.c_str(), median(total), median(upload),
                 median(forces), median(solve), median(download), median(iterations), options.preconditioner.c_str(),
                 *std::max_element(iterations.begin(), iterations.end()), median(residual),
                 *std::max_element(residual.begin(), residual.end()), median(wall),
                 median(elastics), median(integrate), median(corrections), gpu->tick_upload_bytes() / 1e3,
                 gpu->tick_download_bytes() / 1e3, double(gpu->submits() - submits_at_warm) / std::max(1, options.steps));
    if (const GpuMultigrid* mg = gpu->multigrid()) {
      std::vector<uint32_t> nodes;
      for (size_t l = 0; l < mg->level_count(); ++l) nodes.push_back(mg->node_count(l));
      r["mg_levels"] = nodes;
      r["mg_coarse_level"] = mg->coarse_level();
    }
    std::fprintf(stderr, "gpu bench %s: %u dispatches a PCG iteration (%u recorded)\n", size.c_str(),
                 gpu->dispatches_per_iteration(), gpu->recorded_dispatches());
    if (const GpuContactStage* c4 = gpu->contact_stage(); c4 && !first_sweeps.empty())
      std::fprintf(stderr, "gpu bench %s: stage 4 %u dispatches recorded (brief %u, %llu reruns whole); first limiting "
                   "pass %g sweeps (at most %g), %g alternation passes (at most %g)\n", size.c_str(),
                   c4->recorded_dispatches(), c4->recorded_dispatches(true),
                   static_cast<unsigned long long>(gpu->stage4_reruns()), median(first_sweeps),
                   *std::max_element(first_sweeps.begin(), first_sweeps.end()), median(rounds),
                   *std::max_element(rounds.begin(), rounds.end()));
    out.push_back(r);
  }
  return out;
}

}  // namespace weft::lab
