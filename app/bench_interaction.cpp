// Placeholder until issue 3 lands.
#include "app/bench_suites.h"

namespace weft::app {
nlohmann::json bench_interaction(const BenchOptions&) { return {{"error", "not built yet (issue 3)"}}; }
}  // namespace weft::app
