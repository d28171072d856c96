#pragma once
// Each subcommand of `weft` registers itself on the CLI11 app; main.cpp only wires them.
#include <CLI/CLI.hpp>

namespace weft::app {

void register_validate(CLI::App& app);
void register_bench(CLI::App& app);

}  // namespace weft::app
