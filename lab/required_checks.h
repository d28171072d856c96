#pragma once
// Validation results shared by the `weft validate` suites: a list of checks, each
// {"check", "value", "bound", "pass"} and optionally "required": false for a bar reported but not held.
#include <nlohmann/json.hpp>

namespace weft::lab {

// True when every required check passed.
bool required_checks_pass(const nlohmann::json& checks);

}  // namespace weft::lab
