#pragma once
// Each subcommand of `weft` registers itself on the CLI11 app; main.cpp only wires them.
#include <CLI/CLI.hpp>

namespace weft::app {

void register_validate(CLI::App& app);  // app/validate_command.cpp (every suite's options)
void register_bench(CLI::App& app);     // app/bench_command.cpp
void register_run(CLI::App& app);       // app/run_command.cpp
void register_mesh(CLI::App& app);      // app/mesh_command.cpp
void register_record(CLI::App& app);    // app/record_command.cpp (issue 7)
void register_replay(CLI::App& app);    // app/replay_command.cpp (issue 7)
void register_stress(CLI::App& app);    // app/stress_command.cpp (issue 7)

}  // namespace weft::app
