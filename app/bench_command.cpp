#include <algorithm>
#include <cstdio>
#include <iostream>

#include "app/commands.h"
#include "lab/bench_suites.h"
#include "lab/gpu_bench.h"

namespace weft::app {

void register_bench(CLI::App& app) {
  struct Args {
    std::string suite = "all";
    bool json = false;
    lab::BenchOptions options;
    std::string device = "cpu";
    std::vector<std::string> sizes;
    bool validation = false;
    std::string preconditioner = "jacobi";
    int mg_coarse_nodes = -1;
    int chebyshev_iterations = -1;
    int submits = 1;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("bench", "Time simulation steps (one thread) and print the figures");
  cmd->add_option("--suite", args->suite, "solvers | interaction | self-collision | all")
      ->check(CLI::IsMember({"solvers", "interaction", "self-collision", "all"}));
  cmd->add_flag("--json", args->json, "Print results as JSON on stdout");
  cmd->add_flag("--quick", args->options.quick, "Small meshes and few steps (smoke test)");
  cmd->add_option("--steps", args->options.steps, "Steps per timing run (default: per suite)");
  cmd->add_option("--solver", args->options.solver,
                  "Interaction suite: time only this solver (mg, gs, approx, cg, ...); self-collision fold: cg or mg");
  cmd->add_option("--material", args->options.material, "Interaction suite and GPU bench: fabric preset (assets/materials/NAME.json)");
  cmd->add_flag("--only-16k", args->options.only_16k, "Interaction suite: skip the 64k-vertex run");
  cmd->add_option("--threads", args->options.threads,
                  "Interaction and self-collision suites: 2 splits the multigrid solver's fine level of meshes of "
                  "8192 vertices or more in two regions swept by two threads (sim.threads; default 1: one core)")
      ->check(CLI::Range(1, 2));
  cmd->add_option("--case", args->options.self_collision_case, "Self-collision suite: all (default) | crumple | fold | folded-over")
      ->check(CLI::IsMember({"all", "crumple", "fold", "folded-over"}));
  cmd->add_flag("--trace", args->options.trace,
                "Self-collision suite: one stderr line per step (detections, pairs, contacts, zones)");
  cmd->add_flag("--carry-contacts", args->options.carry_contacts,
                "Self-collision suite: carry contacts from one tick to the next (SelfCollisionConfig::carry_contacts)");
  cmd->add_option("--device", args->device,
                  "cpu (the suites) | gpu | auto: the GPU step's time per tick by stage on a hanging cloth lifted by "
                  "two hands (docs/gpu.md)")
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  cmd->add_option("--sizes", args->sizes, "GPU bench: 16k (default), 64k, 256k (1k, 4k: the solve's iteration counts)")
      ->check(CLI::IsMember({"1k", "4k", "16k", "64k", "256k"}));
  cmd->add_option("--preconditioner", args->preconditioner,
                  "GPU bench: the GPU solve's preconditioner, jacobi (default: block Jacobi) | mg (a multigrid V-cycle) | "
                  "chebyshev (no PCG: Chebyshev-accelerated Jacobi, one dispatch an iteration)")
      ->check(CLI::IsMember({"mg", "jacobi", "chebyshev"}));
  cmd->add_option("--chebyshev-iterations", args->chebyshev_iterations,
                  "GPU bench with --preconditioner chebyshev: the iterations recorded (default 96; odd: one more)")
      ->check(CLI::Range(1, 10000));
  cmd->add_option("--mg-coarse-nodes", args->mg_coarse_nodes,
                  "GPU bench with --preconditioner mg: the coarse levels from the first with at most N nodes in one "
                  "workgroup dispatch (default 256; 0: a dispatch per level)")
      ->check(CLI::Range(0, 1 << 30));
  cmd->add_flag("--validation", args->validation, "GPU bench: with VK_LAYER_KHRONOS_validation (counts its messages)");
  cmd->add_option("--submits", args->submits,
                  "GPU bench: 1 (default: stage 4 in the step's submit) | 2 (stage 4 its own submit, as before)")
      ->check(CLI::Range(1, 2));
  cmd->callback([args] {
    nlohmann::json out;
    if (args->device != "cpu") {
      lab::GpuBenchOptions g;
      if (!args->sizes.empty()) g.sizes = args->sizes;
      if (args->options.steps > 0) g.steps = args->options.steps;
      if (args->options.quick) g.steps = std::min(g.steps, 5);
      g.device = args->device;
      g.validation = args->validation;
      g.material = args->options.material;
      g.preconditioner = args->preconditioner;
      g.mg_coarse_nodes = args->mg_coarse_nodes;
      g.chebyshev_iterations = args->chebyshev_iterations;
      g.submits = args->submits;
      out["gpu_step"] = lab::bench_gpu_step(g);
      if (args->json) std::cout << out.dump(2) << "\n";
      return;
    }
    const bool all = args->suite == "all";
    if (all || args->suite == "solvers") out["solvers"] = lab::bench_solvers(args->options);
    if (all || args->suite == "interaction") out["interaction"] = lab::bench_interaction(args->options);
    if (all || args->suite == "self-collision") out["self_collision"] = lab::bench_self_collision(args->options);
    if (args->json) {
      std::cout << out.dump(2) << "\n";
      return;
    }
    // Human summary: the per-run lines went to stderr as the runs finished; here each suite's totals.
    for (const auto& [suite, result] : out.items()) {
      std::printf("%s:\n", suite.c_str());
      for (const auto& [key, value] : result.items()) {
        if (value.is_array()) {
          std::printf("  %s: %zu (per-run lines above; --json for all fields)\n", key.c_str(), value.size());
        } else if (value.is_object()) {
          std::printf("  %s:", key.c_str());
          for (const auto& [k, v] : value.items()) std::printf(" %s=%s", k.c_str(), v.dump().c_str());
          std::printf("\n");
        } else {
          std::printf("  %s: %s\n", key.c_str(), value.dump().c_str());
        }
      }
    }
  });
}

}  // namespace weft::app
