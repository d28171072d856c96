#pragma once
// Lock-free single-writer / single-reader buffer of whole values (a triple buffer, plus optional
// history slots for the reader). The writer fills its private slot and publishes it; the reader takes
// the newest published slot. Neither side ever waits, and no value is copied or allocated per
// exchange: ownership of pre-sized slots moves through one atomic index.
//
// With ReaderSlots = 2 (four slots in all) the reader also keeps the value it held before the newest,
// so it can interpolate between the last two by their timestamps.
#include <array>
#include <atomic>
#include <cstdint>

namespace weft {

template <typename T, int ReaderSlots = 1>
class TripleBuffer {
  static_assert(ReaderSlots >= 1 && ReaderSlots <= 4, "reader keeps 1 to 4 slots");
  static constexpr int kSlots = ReaderSlots + 2;  // reader's + writer's + the shared middle one
  static constexpr uint32_t kFresh = 0x100;       // middle holds a published value not yet taken
  static constexpr uint32_t kIndex = 0xff;

 public:
  TripleBuffer() {
    for (int i = 0; i < ReaderSlots; ++i) reader_[i] = i;
    middle_.store(uint32_t(ReaderSlots), std::memory_order_relaxed);
    back_ = ReaderSlots + 1;
  }
  TripleBuffer(const TripleBuffer&) = delete;
  TripleBuffer& operator=(const TripleBuffer&) = delete;

  // Set-up before either thread runs (e.g. resize every slot): not thread-safe.
  template <typename F>
  void for_each_slot(F&& f) {
    for (auto& s : slots_) f(s);
  }

  // --- writer thread
  // The slot the writer owns; fill it, then publish().
  T& write_buffer() { return slots_[back_]; }
  // Makes the written slot the newest; the writer gets the slot that was shared before.
  void publish() {
    const uint32_t old = middle_.exchange(back_ | kFresh, std::memory_order_acq_rel);
    back_ = old & kIndex;
    if (old & kFresh) overwritten_.fetch_add(1, std::memory_order_relaxed);
    published_.fetch_add(1, std::memory_order_relaxed);
  }

  // --- reader thread
  // Takes the newest published value if there is one not yet taken; returns whether it did.
  bool update() {
    if (!(middle_.load(std::memory_order_relaxed) & kFresh)) return false;
    // Give back the oldest reader slot; the previous newest becomes history.
    const uint32_t oldest = reader_[ReaderSlots - 1];
    const uint32_t got = middle_.exchange(oldest, std::memory_order_acq_rel);
    for (int i = ReaderSlots - 1; i > 0; --i) reader_[i] = reader_[i - 1];
    reader_[0] = got & kIndex;
    if (held_ < ReaderSlots) ++held_;
    return true;
  }
  // Whether the reader has taken anything yet.
  bool has_value() const { return held_ > 0; }
  // The newest value taken by update() (valid once has_value()).
  const T& read_buffer() const { return slots_[reader_[0]]; }
  // The value taken k updates before the newest (k < ReaderSlots), or nullptr if none yet.
  const T* history(int k) const { return k < held_ ? &slots_[reader_[k]] : nullptr; }

  // --- either thread (statistics)
  uint64_t published() const { return published_.load(std::memory_order_relaxed); }
  // Published values replaced before the reader took them (the reader was slower than the writer).
  uint64_t overwritten() const { return overwritten_.load(std::memory_order_relaxed); }

 private:
  std::array<T, kSlots> slots_{};
  alignas(64) std::atomic<uint32_t> middle_{0};
  alignas(64) uint32_t back_ = 0;                     // writer-owned
  std::atomic<uint64_t> published_{0}, overwritten_{0};
  alignas(64) std::array<uint32_t, ReaderSlots> reader_{};  // reader-owned, newest first
  int held_ = 0;
};

}  // namespace weft
