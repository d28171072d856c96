#include "tests/allocation_counter.h"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace {
std::atomic<uint64_t> g_allocations{0};

void* counted(std::size_t n, std::size_t alignment) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (n == 0) n = 1;
  if (alignment <= alignof(std::max_align_t)) return std::malloc(n);
  void* p = nullptr;  // posix_memalign: any power of two that is a multiple of sizeof(void*)
  return posix_memalign(&p, alignment < sizeof(void*) ? sizeof(void*) : alignment, n) == 0 ? p : nullptr;
}
void* counted_or_throw(std::size_t n, std::size_t alignment) {
  if (void* p = counted(n, alignment)) return p;
  throw std::bad_alloc();
}
constexpr std::size_t kPlain = alignof(std::max_align_t);
}  // namespace

uint64_t weft::test::allocation_count() { return g_allocations.load(std::memory_order_relaxed); }

// Every replaceable allocation function ([new.delete]); the library's defaults of the forms not replaced
// here would allocate without being counted.
void* operator new(std::size_t n) { return counted_or_throw(n, kPlain); }
void* operator new[](std::size_t n) { return counted_or_throw(n, kPlain); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted(n, kPlain); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted(n, kPlain); }
void* operator new(std::size_t n, std::align_val_t a) { return counted_or_throw(n, std::size_t(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_or_throw(n, std::size_t(a)); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept { return counted(n, std::size_t(a)); }
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept { return counted(n, std::size_t(a)); }

void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
