// Placeholder until issue 8 lands.
#include "app/bench_suites.h"

namespace weft::app {
nlohmann::json bench_self_collision(const BenchOptions&) { return {{"error", "not built yet (issue 8)"}}; }
}  // namespace weft::app
