#pragma once
// Prints the result of a `weft validate` suite: {"checks": [...], "pass": bool}, each check
// {"check", "value", "bound", "pass"} and optionally "required": false (lab/required_checks.h).
#include <nlohmann/json.hpp>

namespace weft::app {

// Prints `out` as JSON (json = true) or one line per check of out["checks"]; then throws CLI11's exit
// code 1 when out["pass"] is false.
void report_checks(const nlohmann::json& out, bool json);

}  // namespace weft::app
