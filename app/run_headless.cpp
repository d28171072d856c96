// Placeholder until issue 4 lands.
#include <cstdio>

#include "app/run_options.h"

namespace weft::app {
int run_headless_sim(const RunOptions&) {
  std::fprintf(stderr, "weft: this mode is not built yet (issue 4)\n");
  return 3;
}
}  // namespace weft::app
