// Placeholder until issue 2 lands.
#include "app/bench_suites.h"

namespace weft::app {
nlohmann::json bench_solvers(const BenchOptions&) { return {{"error", "not built yet (issue 2)"}}; }
}  // namespace weft::app
