#include "engine/triple_buffer.h"

#include <array>
#include <atomic>
#include <thread>

#include <doctest/doctest.h>

#include "tests/engine/threading_scale.h"

namespace weft {
namespace {

// A value big enough that a torn copy would mix two writes: every word derives from the sequence number.
struct Payload {
  uint64_t seq = 0;
  std::array<uint64_t, 62> words{};
  uint64_t checksum = 0;

  void fill(uint64_t s) {
    seq = s;
    uint64_t sum = s;
    for (size_t i = 0; i < words.size(); ++i) {
      words[i] = s * 0x9E3779B97F4A7C15ull + i;
      sum ^= words[i] + (sum << 6) + (sum >> 2);
    }
    checksum = sum;
  }
  bool intact() const {
    uint64_t sum = seq;
    for (size_t i = 0; i < words.size(); ++i) {
      if (words[i] != seq * 0x9E3779B97F4A7C15ull + i) return false;
      sum ^= words[i] + (sum << 6) + (sum >> 2);
    }
    return sum == checksum;
  }
};

TEST_SUITE("threading") {

TEST_CASE("triple buffer: the reader takes only the newest published value and only once") {
  TripleBuffer<int, 2> b;
  CHECK_FALSE(b.update());
  CHECK_FALSE(b.has_value());
  b.write_buffer() = 1;
  b.publish();
  b.write_buffer() = 2;
  b.publish();  // 1 is replaced before being read
  CHECK(b.overwritten() == 1);
  REQUIRE(b.update());
  CHECK(b.read_buffer() == 2);
  CHECK(b.history(1) == nullptr);  // nothing older taken yet
  CHECK_FALSE(b.update());         // nothing new
  b.write_buffer() = 3;
  b.publish();
  REQUIRE(b.update());
  CHECK(b.read_buffer() == 3);
  REQUIRE(b.history(1) != nullptr);
  CHECK(*b.history(1) == 2);  // the previous one stays for interpolation
  for (int v = 4; v < 20; ++v) {  // slots keep cycling without the writer touching the reader's two
    b.write_buffer() = v;
    b.publish();
    REQUIRE(b.update());
    CHECK(b.read_buffer() == v);
    CHECK(*b.history(1) == v - 1);
  }
  CHECK(b.published() == 19);
}

TEST_CASE("triple buffer hammer: no torn or stale read over 2 x 10^5 exchanges") {
  // An exchange is a read of a value the writer published meanwhile; the writer keeps publishing until
  // the reader has checked n of them, so reads and writes overlap all along. The work is bounded: n
  // exchanges (2 s on the 2-core dev machine at load 5) and at most 20 n polls by the reader, so a
  // starved writer cannot keep it spinning; ctest stops it after 60 s (tests/ctest_timeouts.cmake).
  const uint64_t n = test::scaled(200'000), max_polls = 20 * n;
  TripleBuffer<Payload, 2> b;
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (uint64_t s = 1; !done.load(std::memory_order_relaxed); ++s) {
      b.write_buffer().fill(s);
      b.publish();
      std::this_thread::yield();  // lets the reader in when both share one core
    }
  });
  uint64_t reads = 0, torn = 0, backwards = 0, last = 0, history_bad = 0;
  for (uint64_t poll = 0; reads < n && poll < max_polls; ++poll) {
    if (!b.update()) {
      std::this_thread::yield();
      continue;
    }
    const Payload& p = b.read_buffer();
    ++reads;
    if (!p.intact()) ++torn;
    if (p.seq <= last) ++backwards;
    const Payload* prev = b.history(1);
    if (prev && (!prev->intact() || prev->seq != last)) ++history_bad;
    // Hold both slots while the writer publishes a few more: a slot the writer could reach would be
    // overwritten meanwhile.
    const uint64_t seq = p.seq;
    for (int k = 0; k < 2; ++k) std::this_thread::yield();
    if (p.seq != seq || !p.intact()) ++torn;
    if (prev && (prev->seq != last || !prev->intact())) ++history_bad;
    last = seq;
  }
  done = true;
  writer.join();
  MESSAGE("reads: " << reads << ", published " << b.published() << ", replaced unread " << b.overwritten());
  CHECK(reads >= n / 10);  // the two threads really exchanged values
  CHECK(torn == 0);
  CHECK(backwards == 0);
  CHECK(history_bad == 0);
  // Every published value was read, replaced unread, or is the one still waiting in the middle slot.
  const uint64_t waiting = b.update() ? 1 : 0;
  CHECK(reads + b.overwritten() + waiting == b.published());
}

}  // TEST_SUITE
}  // namespace
}  // namespace weft
