// `weft stress`: the noisy-tracking robustness matrix (issue 7, docs/stress.md). Exit code 1 when any
// run breaks a bound.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/run_summary.h"
#include "engine/pose_noise.h"
#include "lab/stress.h"

namespace weft::app {
namespace {

struct StressCli {
  bool json = false;
  int seeds = 2;
  std::string out = "weft-stress";
  std::vector<std::string> scenarios, noises;
  uint32_t quads = 20;
  std::string device;
  bool no_conditioning = false;
  bool no_one_euro = false;
};

nlohmann::json to_json(const lab::StressRun& r) {
  return {{"scenario", r.scenario},
          {"noise", r.noise},
          {"seed", r.seed},
          {"nan_count", r.nan_count},
          {"max_strain", r.max_strain},
          {"max_vertex_speed", r.max_vertex_speed},
          {"peak_kinetic_energy", r.peak_kinetic_energy},
          {"recovery_s", r.recovery_s},
          {"deviation_m", r.deviation_m},
          {"rest_error_m", r.rest_error_m},
          {"centre_deviation_m", r.centre_deviation_m},
          {"input_gaps", r.input_gaps},
          {"spikes", r.spikes},
          {"samples", r.samples},
          {"rejected_conditioning", r.rejected_conditioning},
          {"rejected_world", r.rejected_world},
          {"state_hash", hex64(r.state_hash)},
          {"stream", stream_summary(r.stream)},
          {"failed", r.failed},
          {"pass", r.pass}};
}

int stress(const StressCli& cli) {
  const auto t0 = std::chrono::steady_clock::now();
  lab::StressOptions o;
  o.seeds = cli.seeds;
  o.scenarios = cli.scenarios;
  o.noises = cli.noises;
  o.quads = cli.quads;
  o.conditioning = !cli.no_conditioning;
  o.device = cli.device;
  o.one_euro = !cli.no_one_euro;
  for (const std::string& n : o.noises) (void)noise_profile(n);  // unknown names fail before any run
  const lab::StressBounds bounds;
  const std::vector<lab::StressRun> runs = lab::run_stress_matrix(o, bounds);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::filesystem::create_directories(cli.out);
  std::map<std::string, std::vector<const lab::StressRun*>> by_scenario;
  for (const lab::StressRun& r : runs)
    if (!r.kinetic_energy.empty()) by_scenario[r.scenario].push_back(&r);
  std::vector<std::string> plots;
  for (const auto& [name, rs] : by_scenario) {
    const std::string path = (std::filesystem::path(cli.out) / ("stress_" + name + ".png")).string();
    lab::write_stress_plot(path, rs, 1.0 / 240.0);
    plots.push_back(path);
  }
  bool pass = true;
  // The fail-safe's counters summed over the matrix: a last line of defence, so 0 when the stages before
  // it behave (issue 34); not a bound, the runs pass or fail on their own metrics.
  uint64_t speed_clamps = 0, energy_clamps = 0;
  for (const lab::StressRun& r : runs) {
    pass = pass && r.pass;
    speed_clamps += r.stream.speed_clamps;
    energy_clamps += r.stream.energy_clamps;
  }

  nlohmann::json j = {{"pass", pass},
                      {"wall_s", wall},
                      {"speed_clamps", speed_clamps},
                      {"energy_clamps", energy_clamps},
                      {"runs", nlohmann::json::array()},
                      {"plots", plots}};
  for (const lab::StressRun& r : runs) j["runs"].push_back(to_json(r));
  j["bounds"] = {{"nan_count", bounds.nan_count},
                 {"max_strain", "<= max(strain limit, noise-free) + " + std::to_string(bounds.strain_margin)},
                 {"max_vertex_speed", bounds.max_vertex_speed},
                 {"peak_kinetic_energy", "<= " + std::to_string(bounds.kinetic_energy_factor) + " x noise-free + " +
                                             std::to_string(bounds.kinetic_energy_slack) + " J"},
                 {"recovery_s", bounds.recovery_s},
                 {"deviation_m", bounds.deviation_m},
                 {"rest_error_m", bounds.rest_error_m}};
  {
    std::FILE* f = std::fopen((std::filesystem::path(cli.out) / "stress.json").string().c_str(), "w");
    if (f) std::fprintf(f, "%s\n", j.dump(2).c_str()), std::fclose(f);
  }
  if (cli.json) {
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf("%-14s %-9s %4s %3s %10s %9s %9s %9s %9s %9s %9s %5s %8s %7s  %s\n", "scenario", "noise", "seed", "nan",
                "max_strain", "p99_strn", "max_v", "peak_KE", "recov_s", "dev_m", "rest_m", "grabs", "rejected",
                "clamps", "pass");
    for (const lab::StressRun& r : runs) {
      const std::string clamps = std::to_string(r.stream.speed_clamps) + "/" + std::to_string(r.stream.energy_clamps);
      std::printf("%-14s %-9s %4llu %3llu %10.4f %9.4f %9.3f %9.4f %9.3f %9.4f %9.4f %5llu %8llu %7s  %s%s\n",
                  r.scenario.c_str(), r.noise.c_str(), (unsigned long long)r.seed, (unsigned long long)r.nan_count,
                  r.max_strain, r.stream.stream.edge_strain_p99, r.max_vertex_speed, r.peak_kinetic_energy, r.recovery_s,
                  r.deviation_m, r.rest_error_m, (unsigned long long)r.stream.grabs,
                  (unsigned long long)(r.stream.poses_conditioned_out + r.stream.poses_invalid), clamps.c_str(),
                  r.pass ? "pass" : "FAIL ", r.failed.c_str());
    }
    std::printf("%zu runs in %.1f s: %s; fail-safe: %llu speed clamps, %llu energy clamps (clamps column: speed/energy); "
                "plots in %s\n",
                runs.size(), wall, pass ? "all within bounds" : "BOUNDS BROKEN", (unsigned long long)speed_clamps,
                (unsigned long long)energy_clamps, cli.out.c_str());
  }
  return pass ? 0 : 1;
}

}  // namespace

void register_stress(CLI::App& app) {
  auto c = std::make_shared<StressCli>();
  auto* cmd = app.add_subcommand("stress", "Noisy-tracking robustness matrix: scenarios x noise levels x seeds");
  cmd->add_flag("--json", c->json, "Print the results as JSON on stdout");
  cmd->add_option("--device", c->device, "Where the step runs: cpu | gpu | auto (default: the scene's sim.device, cpu; docs/gpu.md)")
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  cmd->add_option("--seeds", c->seeds, "Seeds per noisy (scenario, noise) pair")->check(CLI::Range(1, 100));
  cmd->add_option("--out", c->out, "Directory for the plots (stress_<scenario>.png) and stress.json");
  cmd->add_option("--scenario", c->scenarios, "Only these scenarios (two_hand, tracker_circle, hand_sweep)")
      ->check(CLI::IsMember({"two_hand", "tracker_circle", "hand_sweep"}));
  cmd->add_option("--noise", c->noises, "Only these noise levels (the noise-free run always runs)");
  cmd->add_option("--quads", c->quads, "Cloth grid quads per side")->check(CLI::Range(4, 64));
  cmd->add_flag("--no-conditioning", c->no_conditioning, "Turn input conditioning off (to see what it buys)");
  cmd->add_flag("--no-one-euro", c->no_one_euro, "Turn the One Euro filter off (on in the stress scenes)");
  cmd->callback([c] {
    if (const int rc = stress(*c); rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace weft::app
