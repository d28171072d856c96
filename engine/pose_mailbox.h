#pragma once
// Render -> sim pose channel: per device, the most recent pose samples in a small ring that the
// producer overwrites without waiting (latest value wins). Each slot is a seqlock over atomic words,
// so a read torn by a concurrent overwrite is detected and discarded, never used.
//
// The consumer reads samples in order up to a sim time (inputs apply by timestamp at tick boundaries),
// keeping later ones for later ticks. Samples the producer overwrote before the consumer reached them
// are counted; as long as the producer runs at most kHistory samples ahead, none is lost.
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>

#include "sim/pose.h"

namespace weft {

class PoseMailbox {
 public:
  static constexpr uint64_t kHistory = 16;  // samples kept per device

  // --- producer thread (one for all devices)
  void push(const PoseSample& sample) {
    DeviceRing& dev = devices_[size_t(device_index(sample.device))];
    const uint64_t index = dev.written.load(std::memory_order_relaxed);
    Slot& slot = dev.slots[index % kHistory];
    const uint32_t seq = slot.seq.load(std::memory_order_relaxed);
    slot.seq.store(seq + 1, std::memory_order_relaxed);  // odd: being written
    const Words w = pack(sample, index);
    // Release stores: a reader that sees any new word also sees the odd sequence number.
    for (size_t k = 0; k < kWords; ++k) slot.word[k].store(w[k], std::memory_order_release);
    slot.seq.store(seq + 2, std::memory_order_release);
    dev.written.store(index + 1, std::memory_order_release);
  }

  // --- consumer thread
  // Calls apply(const PoseSample&) for each not yet consumed sample of device d with time <= up_to,
  // oldest first. Returns the number applied.
  template <typename F>
  size_t consume(Device d, double up_to, F&& apply) {
    DeviceRing& dev = devices_[size_t(device_index(d))];
    size_t applied = 0;
    for (;;) {
      const uint64_t written = dev.written.load(std::memory_order_acquire);
      if (dev.next >= written) break;
      if (written - dev.next > kHistory) {  // overwritten before we got to them
        overwritten_ += written - kHistory - dev.next;
        dev.next = written - kHistory;
      }
      PoseSample s;
      if (!read(dev.slots[dev.next % kHistory], dev.next, s)) {
        ++overwritten_;  // overwritten while we read it
        ++dev.next;
        continue;
      }
      s.device = d;
      if (s.time > up_to) break;  // belongs to a later tick
      apply(s);
      ++dev.next;
      ++applied;
    }
    return applied;
  }
  // Samples lost to overwriting (consumer-side count).
  uint64_t overwritten() const { return overwritten_; }

 private:
  static constexpr size_t kWords = 6;
  using Words = std::array<uint64_t, kWords>;
  struct Slot {
    std::atomic<uint32_t> seq{0};
    std::array<std::atomic<uint64_t>, kWords> word{};
  };
  struct alignas(64) DeviceRing {
    std::atomic<uint64_t> written{0};  // samples pushed so far
    std::array<Slot, kHistory> slots;
    uint64_t next = 0;                 // consumer: index of the next sample to read
  };

  // Layout of a packed sample: time, position xyz, orientation xyzw, valid flag, sample index.
  struct Packed {
    double time;
    float p[3];
    float q[4];
    uint32_t valid;
    uint64_t index;
  };
  static_assert(sizeof(Packed) == kWords * sizeof(uint64_t));

  static Words pack(const PoseSample& s, uint64_t index) {
    const Packed p{s.time,
                   {s.pose.position.x, s.pose.position.y, s.pose.position.z},
                   {s.pose.orientation.x, s.pose.orientation.y, s.pose.orientation.z, s.pose.orientation.w},
                   s.valid ? 1u : 0u,
                   index};
    Words w;
    std::memcpy(w.data(), &p, sizeof p);
    return w;
  }

  // Seqlock read of sample `index`; false when the slot is being or has been overwritten.
  static bool read(const Slot& slot, uint64_t index, PoseSample& out) {
    const uint32_t s1 = slot.seq.load(std::memory_order_acquire);
    if (s1 & 1u) return false;
    Words w;
    for (size_t k = 0; k < kWords; ++k) w[k] = slot.word[k].load(std::memory_order_acquire);
    if (slot.seq.load(std::memory_order_relaxed) != s1) return false;
    Packed p;
    std::memcpy(&p, w.data(), sizeof p);
    if (p.index != index) return false;
    out.time = p.time;
    out.pose.position = {p.p[0], p.p[1], p.p[2]};
    out.pose.orientation.x = p.q[0];
    out.pose.orientation.y = p.q[1];
    out.pose.orientation.z = p.q[2];
    out.pose.orientation.w = p.q[3];
    out.valid = p.valid != 0;
    return true;
  }

  std::array<DeviceRing, kDeviceCount> devices_{};
  uint64_t overwritten_ = 0;
};

}  // namespace weft
