// `weft validate <suite>`: each suite's options; the experiments and their checks are in
// lab/validation_suites.h and lab/grasp_validation.h, the printing in app/check_report.h.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "app/check_report.h"
#include "app/commands.h"
#include "lab/grasp_validation.h"
#include "lab/validation_device.h"
#include "lab/validation_suites.h"

namespace weft::app {
namespace {

void register_validate_kang(CLI::App& validate) {
  struct Args {
    bool json = false;
    bool quick = false;
    int checks = 43;
    uint32_t quads = 16;
    bool no_sweep = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = validate.add_subcommand("kang", "Kang & Cho section 7: E and S of the approximate and CG solvers");
  cmd->add_flag("--json", args->json, "Print the results as JSON on stdout");
  cmd->add_flag("--quick", args->quick, "12 check points instead of 43");
  cmd->add_option("--checks", args->checks, "Check points (1/30 s apart)")->check(CLI::Range(1, 1000));
  cmd->add_option("--quads", args->quads, "Grid quads per side (default 16)")->check(CLI::Range(2, 200));
  cmd->add_flag("--no-sweep", args->no_sweep, "Skip the mesh resolution sweep (8 to 24 quads per side)");
  cmd->callback([args] {
    const int checks = args->quick ? 12 : args->checks;
    const nlohmann::json out = lab::validate_kang(checks, args->quads, !args->no_sweep, true);
    report_checks(out, args->json);
  });
}

void register_validate_poisson(CLI::App& validate) {
  struct Args {
    bool json = false;
    uint32_t quads = 16;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = validate.add_subcommand("poisson", "Volino 1997 Fig. 4: effective Poisson ratio versus alpha");
  cmd->add_flag("--json", args->json, "Print the results as JSON on stdout");
  cmd->add_option("--quads", args->quads, "Quads per side of the square")->check(CLI::Range(4, 100));
  cmd->callback([args] {
    const nlohmann::json out = lab::validate_poisson(args->quads, true);
    report_checks(out, args->json);
  });
}

void register_validate_stability(CLI::App& validate) {
  struct Args {
    bool json = false;
    double seconds = 10;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = validate.add_subcommand("stability", "Hanging cloth for 10 s at every h from 1/1000 to 1/30 s");
  cmd->add_flag("--json", args->json, "Print the results as JSON on stdout");
  cmd->add_option("--seconds", args->seconds, "Simulated seconds per run")->check(CLI::Range(0.1, 100.0));
  cmd->callback([args] {
    const nlohmann::json out = lab::validate_stability(args->seconds, true);
    if (args->json) {
      std::cout << out.dump(2) << "\n";
    } else {
      // 98 checks: only the failures, one line each (the per-run lines went to stderr).
      int failed = 0;
      for (const auto& c : out["checks"])
        if (!c["pass"].get<bool>()) {
          ++failed;
          std::printf("FAIL %s (late energy gain %g J)\n", c["check"].get<std::string>().c_str(), c["value"].get<double>());
        }
      std::printf("%zu checks: %d failed\n", out["checks"].size(), failed);
    }
    if (!out["pass"].get<bool>()) throw CLI::RuntimeError(1);
  });
}

// `weft validate grasp`: the interaction-physics acceptance checks of issue 3 (elastics, speed cap,
// strain limiting, collisions, friction, release momentum, pose validation, overlapping hands) and the
// hostile-input scenarios of issue 16 (pulling against a pin, release onto a table, a thin plate hit fast,
// grab jitter, a hand twist, 1 km spikes without conditioning).
void register_validate_grasp(CLI::App& validate) {
  struct Args {
    bool json = false;
    std::string solver = integrator_kind_name(WorldConfig{}.integrator);  // the runtime's
    std::string device = "cpu";
  };
  auto args = std::make_shared<Args>();
  auto* cmd = validate.add_subcommand("grasp", "Grasping, elastics, collisions, friction and strain limiting checks");
  cmd->add_flag("--json", args->json, "Print results as JSON on stdout");
  cmd->add_option("--solver", args->solver,
                  "Integrator the scenes run on: mg (default, the runtime's multigrid CG), cg, approx (Kang & Cho "
                  "with the runtime's k = 3 and translation correction), gs (block Gauss-Seidel), euler or rk4")
      ->check(CLI::IsMember({"mg", "approx", "cg", "gs", "euler", "rk4"}));
  cmd->add_option("--device", args->device,
                  "Where the step runs: cpu (default), gpu (the GPU step, lavapipe included; refused naming the "
                  "feature it does not run) or auto (docs/gpu.md)")
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  cmd->callback([args] {
    WorldConfig base;  // the runtime's solver options
    base.integrator = parse_integrator_kind(args->solver);
    const StepDeviceChoice device = lab::use_validation_device(args->device, "grasp", base);
    std::fprintf(stderr, "validate grasp: running the checks on solver %s\n", args->solver.c_str());
    const std::vector<lab::GraspCheck> checks = lab::run_grasp_validation(base);
    bool all = true;
    nlohmann::json out = nlohmann::json::array();
    for (const lab::GraspCheck& c : checks) {
      all = all && c.pass;
      out.push_back({{"check", c.check}, {"value", c.value}, {"bound", c.bound}, {"pass", c.pass},
                     {"detail", c.detail}, {"solver", args->solver}, {"device", device.gpu ? "gpu" : "cpu"}});
    }
    if (args->json) {
      std::cout << out.dump(2) << "\n";
    } else {
      for (const lab::GraspCheck& c : checks)
        std::printf("%-4s %-24s value %-12.6g bound %-10.4g %s\n", c.pass ? "ok" : "FAIL", c.check.c_str(), c.value,
                    c.bound, c.detail.c_str());
      std::printf("%s\n", all ? "all grasp checks pass" : "some grasp checks FAIL");
    }
    if (!all) throw CLI::RuntimeError(1);
  });
}

void register_validate_self_collision(CLI::App& validate) {
  struct Args {
    bool json = false;
    bool reduced = false;
    bool no_self = false;
    std::string solver = "mg";
    std::string scene = "all";
    int threads = 1;
    std::string device = "cpu";
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
  cmd->add_option("--device", args->device,
                  "Where the step runs: cpu (default), gpu (the GPU step, lavapipe included; refused naming the "
                  "feature it does not run) or auto (docs/gpu.md)")
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  cmd->callback([args] {
    lab::ScenarioOptions options;
    options.reduced = args->reduced;
    options.self_collision = !args->no_self;
    options.integrator = parse_integrator_kind(args->solver);
    options.threads = args->threads;
    WorldConfig config;  // what the scenarios' Worlds use (lab/self_collision_scenarios.cpp's scenario_config)
    config.integrator = options.integrator;
    config.self_collision.enabled = options.self_collision;
    const StepDeviceChoice device = lab::use_validation_device(args->device, "self-collision", config);
    options.make_integrator = config.make_custom_integrator;
    nlohmann::json out = lab::validate_self_collision(options, args->scene);
    out.update(lab::device_json(device));
    const bool all_pass = out["pass"].get<bool>();
    if (args->json) std::cout << out.dump(2) << "\n";
    else std::cout << (all_pass ? "self-collision: all checks pass\n" : "self-collision: some checks FAIL\n");
    if (!all_pass) throw CLI::RuntimeError(1);
  });
}

void register_validate_tensile(CLI::App& validate) {
  struct Args {
    bool json = false;
    uint32_t quads = 20;
    uint32_t fine = 60;
    bool no_presets = false;
    std::string material_dir;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = validate.add_subcommand("tensile", "Volino 2005 virtual tensile test of the weft/warp model, and the presets' stiffness");
  cmd->add_flag("--json", args->json, "Print the results as JSON on stdout");
  cmd->add_option("--quads", args->quads, "Quads per side of the sample")->check(CLI::Range(2, 100));
  cmd->add_option("--fine", args->fine, "Quads per side of the off-axis reference mesh")->check(CLI::Range(2, 200));
  cmd->add_flag("--no-presets", args->no_presets, "Skip the fabric presets");
  cmd->add_option("--materials", args->material_dir, "Folder of the fabric presets (default: assets/materials)");
  cmd->callback([args] {
    const nlohmann::json out = lab::validate_tensile(args->quads, args->fine, !args->no_presets, args->material_dir);
    report_checks(out, args->json);
  });
}

void register_validate_plasticity(CLI::App& validate) {
  struct Args {
    bool json = false;
    float tau = 2.f;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = validate.add_subcommand("plasticity", "Volino 1995 plasticity: a folded strip keeps a crease, a stretched strip its elongation; both relax");
  cmd->add_flag("--json", args->json, "Print the results as JSON on stdout");
  cmd->add_option("--tau", args->tau, "Relaxation time constant (bending and in plane), s")->check(CLI::Range(0.2, 20.0));
  cmd->callback([args] { report_checks(lab::validate_plasticity(args->tau), args->json); });
}

void register_validate_integrators(CLI::App& validate) {
  struct Args {
    bool json = false;
    float seconds = 2.f;
    float tol = 1e-5f;
    std::string svg = "weft_integrators.svg";
  };
  auto args = std::make_shared<Args>();
  auto* cmd = validate.add_subcommand("integrators", "Volino 2005 Fig. 5: energy of BE (alpha 1, 0.5), BDF-2 and RK45 on a swinging cloth");
  cmd->add_flag("--json", args->json, "Print the results as JSON on stdout");
  cmd->add_option("--seconds", args->seconds, "Simulated time per run")->check(CLI::Range(0.1, 60.0));
  cmd->add_option("--tolerance", args->tol, "RK45 error per sub-step, m")->check(CLI::Range(1e-9, 1e-2));
  cmd->add_option("--svg", args->svg, "Energy plot (SVG); empty to skip");
  cmd->callback([args] { report_checks(lab::validate_integrators(args->seconds, args->tol, args->svg), args->json); });
}

void register_validate_interaction(CLI::App& validate) {
  struct Args {
    bool json = false;
    lab::InteractionValidationOptions options;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = validate.add_subcommand(
      "interaction", "Two hands lift, pull, shake and drop a 16k-vertex cotton cloth: the solver against CG at 1e-6");
  cmd->add_flag("--json", args->json, "Print the runs and checks as JSON on stdout");
  cmd->add_option("--quads", args->options.quads, "Grid quads per side (default 127: 16 384 vertices)")->check(CLI::Range(8, 400));
  cmd->add_option("--solver", args->options.solver, "Solver under test: mg (default, the runtime's), gs, approx or cg")
      ->check(CLI::IsMember({"mg", "gs", "approx", "cg"}));
  cmd->add_option("--cg-max-iterations", args->options.cg_max_iterations, "Iteration cap of the CG reference (default 3000)")
      ->check(CLI::Range(10, 100000));
  cmd->add_option("--mg-tolerance", args->options.mg_tolerance, "mg: relative error of dv (energy norm, estimated) its CG stops at (default: the runtime's)");
  cmd->add_option("--mg-iterations", args->options.mg_iterations, "mg: iteration cap (default: the runtime's)");
  cmd->add_option("--mg-smoothing", args->options.mg_smoothing, "mg: Gauss-Seidel sweeps per level and direction");
  cmd->add_flag("--no-reference", args->options.no_reference,
                "Skip the CG reference (half an hour at 16k) and the two checks that compare with it");
  cmd->add_option("--device", args->options.device,
                  "Where the solver under test steps: cpu (default), gpu (the GPU step's PCG, lavapipe included) or "
                  "auto; the CG reference stays on the CPU (docs/gpu.md)")
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  cmd->add_option("--preconditioner", args->options.preconditioner,
                  "With --device gpu: the GPU solve's preconditioner, jacobi (default: block Jacobi) | mg (a multigrid V-cycle) "
                  "| chebyshev (no PCG: Chebyshev-accelerated Jacobi, one dispatch an iteration)")
      ->check(CLI::IsMember({"jacobi", "mg", "chebyshev"}));
  cmd->add_option("--chebyshev-iterations", args->options.chebyshev_iterations,
                  "With --preconditioner chebyshev: the iterations recorded (default 96; odd: one more)")
      ->check(CLI::Range(1, 10000));
  cmd->callback([args] {
    const nlohmann::json out = lab::validate_interaction(args->options);
    if (!args->json)
      for (const auto& run : out["runs"])
        std::printf("%-4s damping %-3s peak E %.4g J, peak K %.4g J, above hand %+.4f m, speed %.3f m/s, settle %.3f s, "
                    "strain p99 %.4f max %.4f, step %.2f ms, iterations %.1f\n",
                    run["solver"].get<std::string>().c_str(), run["damping"].get<bool>() ? "on" : "off",
                    run["peak_elastic_J"].get<double>(), run["peak_kinetic_J"].get<double>(),
                    run["max_height_above_hand_m"].get<double>(), run["max_speed_held_m_s"].get<double>(),
                    run["settle_time_s"].get<double>(), run["strain_p99_held"].get<double>(),
                    run["strain_max_held"].get<double>(), run["mean_step_ms"].get<double>(),
                    run["mean_solver_iterations"].get<double>());
    report_checks(out, args->json);
  });
}

}  // namespace

void register_validate(CLI::App& app) {
  auto* validate = app.add_subcommand("validate", "Reproduce the papers' experiments and check Weft's bounds");
  validate->require_subcommand(1);
  register_validate_kang(*validate);
  register_validate_poisson(*validate);
  register_validate_stability(*validate);
  register_validate_grasp(*validate);
  register_validate_self_collision(*validate);
  register_validate_tensile(*validate);
  register_validate_plasticity(*validate);
  register_validate_integrators(*validate);
  register_validate_interaction(*validate);
}

}  // namespace weft::app
