#pragma once
// std::vector allocator with a fixed alignment, for per-vertex records loaded with aligned SIMD moves.
#include <cstddef>
#include <new>
#include <vector>

namespace weft {

template <class T, size_t Alignment>
struct AlignedAllocator {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = AlignedAllocator<U, Alignment>;
  };
  AlignedAllocator() = default;
  template <class U>
  AlignedAllocator(const AlignedAllocator<U, Alignment>&) {}
  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(Alignment))); }
  void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t(Alignment)); }
  template <class U>
  bool operator==(const AlignedAllocator<U, Alignment>&) const { return true; }
};

// Floats on 32-byte boundaries (one AVX register).
// 64 bytes: a cache line, so that slot vectors split between threads at whole slices (128 bytes) share no
// line between the threads (sim/solve_team.h).
using AlignedFloats = std::vector<float, AlignedAllocator<float, 64>>;

}  // namespace weft
