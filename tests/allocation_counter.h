#pragma once
// Counts heap allocations made anywhere in a test binary, on any thread, so a test can assert that a
// stretch of ticks allocated nothing. tests/allocation_counter.cpp replaces every global operator new:
// plain, array, nothrow and the std::align_val_t forms that sim/aligned_allocator.h uses.
#include <cstdint>

namespace weft::test {

// Allocations so far (all operator new forms together).
uint64_t allocation_count();

}  // namespace weft::test
