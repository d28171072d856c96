#pragma once
// Validation results shared by the `weft validate` suites: a list of checks, each
// {"check", "value", "bound", "pass"} and optionally "required": false for a bar reported but not held.
#include <nlohmann/json.hpp>

namespace weft::app {

// True when every required check passed.
bool required_checks_pass(const nlohmann::json& checks);

// Prints `out` as JSON (json = true) or one line per check of out["checks"]; then throws CLI11's exit
// code 1 when out["pass"] is false.
void report_checks(const nlohmann::json& out, bool json);

}  // namespace weft::app
