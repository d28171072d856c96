// `weft validate self-collision`: the experiments of issues 8 and 15 (app/self_collision_scenarios.h).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/self_collision_scenarios.h"

namespace weft::app {

void register_validate_self_collision(CLI::App& validate) {
  struct Args {
    bool json = false;
    bool reduced = false;
    bool no_self = false;
    std::string solver = "mg";
    std::string scene = "all";
    int threads = 1;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = validate.add_subcommand(
      "self-collision", "Cloth folding onto itself: drop on a floor, stacked sheets pressed, fold by two hands");
  cmd->add_flag("--json", args->json, "Print the checks as JSON on stdout");
  cmd->add_flag("--reduced", args->reduced, "Coarse meshes and short runs (as the tests)");
  cmd->add_option("--solver", args->solver, "mg (default, the runtime's) | cg | approx (Kang & Cho's, k = 3)")
      ->check(CLI::IsMember({"mg", "approx", "cg"}));
  cmd->add_option("--scene", args->scene,
                  "all (default) | drop | stack | fold | crumple (16k vertices, 5 s): run one experiment only")
      ->check(CLI::IsMember({"all", "drop", "stack", "fold", "crumple"}));
  cmd->add_flag("--no-self-collision", args->no_self, "Turn self-collision off (to see the checks fail)");
  cmd->add_option("--threads", args->threads,
                  "2: the multigrid solver's fine level split in two regions on two threads (sim.threads), "
                  "as the 16k crumple's other trajectory")
      ->check(CLI::Range(1, 2));
  cmd->callback([args] {
    ScenarioOptions options;
    options.reduced = args->reduced;
    options.self_collision = !args->no_self;
    options.integrator = parse_integrator_kind(args->solver);
    options.threads = args->threads;
    nlohmann::json checks = nlohmann::json::array();
    bool all_pass = true;
    const std::pair<const char*, decltype(&run_drop_fold)> runs[] = {
        {"drop", run_drop_fold}, {"stack", run_stacked_press}, {"fold", run_hand_fold}, {"crumple", run_hand_crumple}};
    for (const auto& [name, run] : runs) {
      if (args->scene != "all" && args->scene != name) continue;
      for (const ScenarioCheck& c : run(options)) {
        checks.push_back({{"check", c.check}, {"value", c.value}, {"bound", c.bound}, {"pass", c.pass()}});
        all_pass = all_pass && c.pass();
        std::fprintf(stderr, "%-40s %12.6g %s %-10.4g %s\n", c.check.c_str(), c.value, c.at_least ? ">=" : "<=",
                     c.bound, c.pass() ? "pass" : "FAIL");
      }
    }
    if (args->json) std::cout << nlohmann::json{{"checks", checks}, {"pass", all_pass}}.dump(2) << "\n";
    else std::cout << (all_pass ? "self-collision: all checks pass\n" : "self-collision: some checks FAIL\n");
    if (!all_pass) throw CLI::RuntimeError(1);
  });
}

}  // namespace weft::app
