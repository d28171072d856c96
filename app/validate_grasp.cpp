// `weft validate grasp`: the interaction-physics acceptance checks of issue 3 (elastics, speed cap,
// strain limiting, collisions, friction, release momentum, pose validation, overlapping hands) and the
// hostile-input scenarios of issue 16 (pulling against a pin, release onto a table, a thin plate hit fast,
// grab jitter, a hand twist, 1 km spikes without conditioning).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "sim/grasp_validation.h"

namespace weft::app {

void register_validate_grasp(CLI::App& validate) {
  struct Args {
    bool json = false;
    std::string solver = integrator_kind_name(WorldConfig{}.integrator);  // the runtime's
  };
  auto args = std::make_shared<Args>();
  auto* cmd = validate.add_subcommand("grasp", "Grasping, elastics, collisions, friction and strain limiting checks");
  cmd->add_flag("--json", args->json, "Print results as JSON on stdout");
  cmd->add_option("--solver", args->solver,
                  "Integrator the scenes run on: mg (default, the runtime's multigrid CG), cg, approx (Kang & Cho "
                  "with the runtime's k = 3 and translation correction), gs (block Gauss-Seidel), euler or rk4")
      ->check(CLI::IsMember({"mg", "approx", "cg", "gs", "euler", "rk4"}));
  cmd->callback([args] {
    WorldConfig base;  // the runtime's solver options
    base.integrator = parse_integrator_kind(args->solver);
    std::fprintf(stderr, "validate grasp: running the checks on solver %s\n", args->solver.c_str());
    const std::vector<GraspCheck> checks = run_grasp_validation(base);
    bool all = true;
    nlohmann::json out = nlohmann::json::array();
    for (const GraspCheck& c : checks) {
      all = all && c.pass;
      out.push_back({{"check", c.check}, {"value", c.value}, {"bound", c.bound}, {"pass", c.pass},
                     {"detail", c.detail}, {"solver", args->solver}});
    }
    if (args->json) {
      std::cout << out.dump(2) << "\n";
    } else {
      for (const GraspCheck& c : checks)
        std::printf("%-4s %-24s value %-12.6g bound %-10.4g %s\n", c.pass ? "ok" : "FAIL", c.check.c_str(), c.value,
                    c.bound, c.detail.c_str());
      std::printf("%s\n", all ? "all grasp checks pass" : "some grasp checks FAIL");
    }
    if (!all) throw CLI::RuntimeError(1);
  });
}

}  // namespace weft::app
