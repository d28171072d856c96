// Placeholder until issue 5 lands.
#include <cstdio>

#include "app/run_options.h"

namespace weft::app {
int run_headless_render(const RunOptions&) {
  std::fprintf(stderr, "weft: rendering is not built yet (issue 5)\n");
  return 3;
}
int run_window(const RunOptions&) {
  std::fprintf(stderr, "weft: the window mode is not built yet (issue 5)\n");
  return 3;
}
}  // namespace weft::app
