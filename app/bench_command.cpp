#include <cstdio>
#include <iostream>

#include "app/bench_suites.h"
#include "app/commands.h"

namespace weft::app {

void register_bench(CLI::App& app) {
  struct Args {
    std::string suite = "all";
    bool json = false;
    BenchOptions options;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("bench", "Time simulation steps (one thread) and print the figures");
  cmd->add_option("--suite", args->suite, "solvers | interaction | self-collision | all")
      ->check(CLI::IsMember({"solvers", "interaction", "self-collision", "all"}));
  cmd->add_flag("--json", args->json, "Print results as JSON on stdout");
  cmd->add_flag("--quick", args->options.quick, "Small meshes and few steps (smoke test)");
  cmd->add_option("--steps", args->options.steps, "Steps per timing run (default: per suite)");
  cmd->callback([args] {
    nlohmann::json out;
    const bool all = args->suite == "all";
    if (all || args->suite == "solvers") out["solvers"] = bench_solvers(args->options);
    if (all || args->suite == "interaction") out["interaction"] = bench_interaction(args->options);
    if (all || args->suite == "self-collision") out["self_collision"] = bench_self_collision(args->options);
    std::cout << (args->json ? out.dump(2) : out.dump(2)) << "\n";
  });
}

}  // namespace weft::app
