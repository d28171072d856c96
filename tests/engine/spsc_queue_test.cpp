#include "engine/spsc_queue.h"

#include <chrono>
#include <thread>

#include <doctest/doctest.h>

#include "tests/engine/threading_scale.h"

namespace weft {
namespace {

struct Item {
  uint64_t seq = 0;
  uint64_t check = 0;  // ~seq: catches a half-written item
};

TEST_SUITE("threading") {

TEST_CASE("spsc queue: a full queue refuses the push and counts it") {
  SpscQueue<int> q(5);
  CHECK(q.capacity() == 8);
  for (int i = 0; i < 8; ++i) CHECK(q.push(i));
  CHECK_FALSE(q.push(99));
  CHECK_FALSE(q.push(100));
  CHECK(q.rejected() == 2);
  CHECK(q.size() == 8);
  int v = -1;
  for (int i = 0; i < 8; ++i) {
    REQUIRE(q.try_pop(v));
    CHECK(v == i);  // FIFO, and the refused items never got in
  }
  CHECK_FALSE(q.try_pop(v));
  CHECK(q.front() == nullptr);
  CHECK(q.push(7));
  REQUIRE(q.front() != nullptr);
  CHECK(*q.front() == 7);
  CHECK_THROWS_AS(SpscQueue<int>(0), std::invalid_argument);
}

TEST_CASE("spsc queue: 10^6 events cross threads with none lost or duplicated and full queue reported") {
  const uint64_t n = test::scaled(1'000'000);
  SpscQueue<Item> q(64);
  uint64_t refused = 0;
  std::thread producer([&] {
    for (uint64_t s = 0; s < n; ++s) {
      while (!q.push({s, ~s})) {  // full: the producer sees it and retries; nothing is dropped
        ++refused;
        std::this_thread::yield();
      }
    }
  });
  uint64_t expected = 0, out_of_order = 0, corrupt = 0;
  Item it;
  while (expected < n) {
    if (!q.try_pop(it)) {
      std::this_thread::yield();
      continue;
    }
    if (it.check != ~it.seq) ++corrupt;
    if (it.seq != expected) ++out_of_order;
    expected = it.seq + 1;
    // Stall now and then so the producer certainly meets a full queue.
    if (it.seq % (n / 10) == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  producer.join();
  CHECK(out_of_order == 0);
  CHECK(corrupt == 0);
  CHECK(expected == n);
  CHECK_FALSE(q.try_pop(it));  // nothing extra
  CHECK(refused > 0);
  CHECK(q.rejected() == refused);  // every refusal is counted
}

}  // TEST_SUITE
}  // namespace
}  // namespace weft
