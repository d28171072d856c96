// `weft validate self-collision`: the experiments of issues 8 and 15 (lab/self_collision_scenarios.h).
#include <cstdio>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "lab/self_collision_scenarios.h"
#include "lab/validation_suites.h"

namespace weft::lab {

nlohmann::json validate_self_collision(const ScenarioOptions& options, const std::string& scene) {
  nlohmann::json checks = nlohmann::json::array();
  bool all_pass = true;
  const std::pair<const char*, decltype(&run_drop_fold)> runs[] = {
      {"drop", run_drop_fold}, {"stack", run_stacked_press}, {"fold", run_hand_fold}, {"crumple", run_hand_crumple}};
  for (const auto& [name, run] : runs) {
    if (scene != "all" && scene != name) continue;
    for (const ScenarioCheck& c : run(options)) {
      checks.push_back({{"check", c.check}, {"value", c.value}, {"bound", c.bound}, {"pass", c.pass()}});
      all_pass = all_pass && c.pass();
      std::fprintf(stderr, "%-40s %12.6g %s %-10.4g %s\n", c.check.c_str(), c.value, c.at_least ? ">=" : "<=",
                   c.bound, c.pass() ? "pass" : "FAIL");
    }
  }
  return {{"checks", checks}, {"pass", all_pass}};
}

}  // namespace weft::lab
