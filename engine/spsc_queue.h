#pragma once
// Bounded lock-free single-producer / single-consumer FIFO. Storage is sized once at construction;
// push and pop never allocate or wait. A push on a full queue returns false and is counted, so the
// producer can retry or report it: nothing is dropped silently.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>

namespace weft {

template <typename T>
class SpscQueue {
 public:
  // capacity: how many items the queue holds; rounded up to a power of two.
  explicit SpscQueue(size_t capacity) {
    if (capacity == 0) throw std::invalid_argument("SpscQueue capacity must be positive");
    size_t n = 1;
    while (n < capacity) n <<= 1;
    mask_ = n - 1;
    items_ = std::make_unique<T[]>(n);
  }
  SpscQueue(const SpscQueue&) = delete;
  SpscQueue& operator=(const SpscQueue&) = delete;

  size_t capacity() const { return mask_ + 1; }

  // --- producer thread
  // Appends item; returns false (and counts a rejection) when the queue is full.
  bool push(const T& item) {
    const uint64_t tail = tail_.load(std::memory_order_relaxed);
    if (tail - head_cache_ > mask_) {
      head_cache_ = head_.load(std::memory_order_acquire);
      if (tail - head_cache_ > mask_) {
        rejected_.fetch_add(1, std::memory_order_relaxed);
        return false;
      }
    }
    items_[tail & mask_] = item;
    tail_.store(tail + 1, std::memory_order_release);
    return true;
  }

  // --- consumer thread
  // The oldest item, or nullptr when empty. Valid until pop().
  const T* front() {
    const uint64_t head = head_.load(std::memory_order_relaxed);
    if (head == tail_cache_) {
      tail_cache_ = tail_.load(std::memory_order_acquire);
      if (head == tail_cache_) return nullptr;
    }
    return &items_[head & mask_];
  }
  // Removes the oldest item; call only after front() returned non-null.
  void pop() { head_.store(head_.load(std::memory_order_relaxed) + 1, std::memory_order_release); }
  // Moves the oldest item into out; returns false when empty.
  bool try_pop(T& out) {
    const T* f = front();
    if (!f) return false;
    out = *f;
    pop();
    return true;
  }

  // --- either thread (approximate while the other side runs)
  size_t size() const { return size_t(tail_.load(std::memory_order_acquire) - head_.load(std::memory_order_acquire)); }
  // Pushes refused because the queue was full.
  uint64_t rejected() const { return rejected_.load(std::memory_order_relaxed); }

 private:
  std::unique_ptr<T[]> items_;
  size_t mask_ = 0;
  // Producer and consumer indices on their own cache lines; each side caches the other's index.
  alignas(64) std::atomic<uint64_t> tail_{0};
  uint64_t head_cache_ = 0;  // producer's last view of head_
  std::atomic<uint64_t> rejected_{0};
  alignas(64) std::atomic<uint64_t> head_{0};
  uint64_t tail_cache_ = 0;  // consumer's last view of tail_
};

}  // namespace weft
