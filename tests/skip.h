#pragma once
// Skipping a test case that cannot run on this machine (no Vulkan device, no X server, no OpenXR
// runtime). doctest::skip would leave the case out of `--list-test-cases`, so ctest would never list it;
// instead the case is discovered as usual, and at run time WEFT_SKIP_IF prints a marker line and returns.
// ctest reports such a case Skipped (SKIP_REGULAR_EXPRESSION "WEFT_SKIPPED: ", tests/CMakeLists.txt); run
// directly, doctest counts it passed and the marker line says why it did nothing.
#include <cstdio>
#include <string_view>

namespace weft::test {

inline bool skip_because(bool condition, std::string_view why) {
  if (condition) {
    std::printf("WEFT_SKIPPED: %.*s\n", int(why.size()), why.data());
    std::fflush(stdout);
  }
  return condition;
}

}  // namespace weft::test

#define WEFT_SKIP_IF(condition, why)                              \
  do {                                                            \
    if (::weft::test::skip_because((condition), (why))) return;   \
  } while (0)
