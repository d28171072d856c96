// Placeholder until issue 6 lands.
#include <cstdio>

#include "app/run_options.h"

namespace weft::app {
int run_xr(const RunOptions&) {
  std::fprintf(stderr, "weft: this mode is not built yet (issue 6)\n");
  return 3;
}
}  // namespace weft::app
