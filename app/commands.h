#pragma once
// Each subcommand of `weft` registers itself on the CLI11 app; main.cpp only wires them.
#include <CLI/CLI.hpp>

namespace weft::app {

void register_validate(CLI::App& app);  // app/validate_command.cpp
void register_bench(CLI::App& app);     // app/bench_command.cpp
void register_run(CLI::App& app);       // app/run_command.cpp
void register_mesh(CLI::App& app);      // app/mesh_command.cpp
void register_record(CLI::App& app);    // app/record_command.cpp (issue 7)
void register_replay(CLI::App& app);    // app/replay_command.cpp (issue 7)
void register_stress(CLI::App& app);    // app/stress_command.cpp (issue 7)

// `weft validate <name>` suites, each in its own file; `validate` is the parent subcommand.
void register_validate_kang(CLI::App& validate);            // app/validate_kang.cpp (issue 2)
void register_validate_poisson(CLI::App& validate);         // app/validate_poisson.cpp (issue 2)
void register_validate_grasp(CLI::App& validate);           // app/validate_grasp.cpp (issue 3)
void register_validate_self_collision(CLI::App& validate);  // app/validate_self_collision.cpp (issue 8)
void register_validate_stability(CLI::App& validate);       // app/validate_stability.cpp (issue 2)
void register_validate_tensile(CLI::App& validate);         // app/validate_tensile.cpp (issue 17)
void register_validate_plasticity(CLI::App& validate);      // app/validate_plasticity.cpp (issue 17)
void register_validate_integrators(CLI::App& validate);     // app/validate_integrators.cpp (issue 17)
void register_validate_interaction(CLI::App& validate);     // app/validate_interaction.cpp (issue 14)

}  // namespace weft::app
