#pragma once
// Iteration counts for the threading tests: full size normally, a tenth under ThreadSanitizer (which
// runs such code 5-15x slower), so both builds finish each test in seconds.
#include <cstdint>

namespace weft::test {
#if defined(__SANITIZE_THREAD__)
inline constexpr uint64_t kThreadingScale = 10;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr uint64_t kThreadingScale = 10;
#else
inline constexpr uint64_t kThreadingScale = 1;
#endif
#else
inline constexpr uint64_t kThreadingScale = 1;
#endif
inline constexpr uint64_t scaled(uint64_t n) { return n / kThreadingScale; }
}  // namespace weft::test
