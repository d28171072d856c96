#include "lab/required_checks.h"

namespace weft::lab {

bool required_checks_pass(const nlohmann::json& checks) {
  bool pass = true;
  for (const auto& c : checks)
    if (c.value("required", true)) pass = pass && c["pass"].get<bool>();
  return pass;
}

}  // namespace weft::lab
