#include "app/check_report.h"

#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

namespace weft::app {

void report_checks(const nlohmann::json& out, bool json) {
  if (json) {
    std::cout << out.dump(2) << "\n";
  } else {
    for (const auto& c : out["checks"]) {
      const auto& bound = c["bound"];
      const std::string bound_text = bound.is_string() ? bound.get<std::string>() : bound.dump();
      const char* verdict = c["pass"].get<bool>() ? "PASS" : (c.value("required", true) ? "FAIL" : "MISS (not required)");
      std::printf("%-46s value %-10.5g bound %-18s %s\n", c["check"].get<std::string>().c_str(),
                  c["value"].get<double>(), bound_text.c_str(), verdict);
    }
  }
  if (!out["pass"].get<bool>()) throw CLI::RuntimeError(1);
}

}  // namespace weft::app
