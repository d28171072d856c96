#include "engine/pose_mailbox.h"

#include <atomic>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "tests/engine/threading_scale.h"

namespace weft {
namespace {

PoseSample sample(Device d, double t) {
  PoseSample s;
  s.device = d;
  s.time = t;
  // Every field derives from t, so a sample mixed from two writes is detectable.
  s.pose.position = {float(t), float(2 * t), float(-t)};
  s.pose.orientation = glm::quat(1.f, 0.f, 0.f, 0.f);
  return s;
}

bool consistent(const PoseSample& s) {
  return s.pose.position.x == float(s.time) && s.pose.position.y == float(2 * s.time) &&
         s.pose.position.z == float(-s.time) && s.pose.orientation.w == 1.f;
}

TEST_SUITE("threading") {

TEST_CASE("pose mailbox: samples come out in order per device up to the boundary time") {
  PoseMailbox box;
  for (int i = 0; i < 5; ++i) box.push(sample(Device::LeftHand, 0.1 * i));
  box.push(sample(Device::Tracker1, 0.05));
  std::vector<double> got;
  auto collect = [&](const PoseSample& s) { got.push_back(s.time); };
  CHECK(box.consume(Device::LeftHand, 0.25, collect) == 3);  // 0, 0.1, 0.2; 0.3 waits
  CHECK(got == std::vector<double>{0.0, 0.1, 0.2});
  got.clear();
  CHECK(box.consume(Device::RightHand, 1.0, collect) == 0);
  CHECK(box.consume(Device::Tracker1, 1.0, [&](const PoseSample& s) { CHECK(s.device == Device::Tracker1); }) == 1);
  CHECK(box.consume(Device::LeftHand, 1.0, collect) == 2);
  CHECK(got == std::vector<double>{0.30000000000000004, 0.4});
  CHECK(box.overwritten() == 0);
}

TEST_CASE("pose mailbox: the newest samples win when the consumer falls behind and losses are counted") {
  PoseMailbox box;
  const int n = int(PoseMailbox::kHistory) + 10;
  for (int i = 0; i < n; ++i) box.push(sample(Device::RightHand, i));
  std::vector<double> got;
  box.consume(Device::RightHand, 1e9, [&](const PoseSample& s) { got.push_back(s.time); });
  REQUIRE(got.size() == PoseMailbox::kHistory);
  CHECK(got.front() == 10.0);
  CHECK(got.back() == double(n - 1));
  CHECK(box.overwritten() == 10);
}

TEST_CASE("pose mailbox hammer: no torn sample and every sample either read or counted lost") {
  const uint64_t n = test::scaled(1'000'000);
  PoseMailbox box;
  std::atomic<double> consumed{0};
  std::thread producer([&] {
    for (uint64_t i = 1; i <= n; ++i) {
      // First half: stay within 8 samples of the consumer (the ring holds 16), so none is lost;
      // second half: flat out, so samples get overwritten, some while being read.
      while (i <= n / 2 && double(i) > consumed.load(std::memory_order_relaxed) + 8) std::this_thread::yield();
      box.push(sample(Device::Tracker0, double(i)));
    }
  });
  uint64_t read = 0, torn = 0, backwards = 0;
  double last = 0;
  while (last < double(n)) {
    const size_t got = box.consume(Device::Tracker0, 1e18, [&](const PoseSample& s) {
      ++read;
      if (!consistent(s)) ++torn;
      if (s.time <= last) ++backwards;
      last = s.time;
    });
    consumed.store(last, std::memory_order_relaxed);
    if (got == 0) std::this_thread::yield();
  }
  producer.join();
  MESSAGE("read " << read << ", overwritten " << box.overwritten());
  CHECK(torn == 0);
  CHECK(backwards == 0);
  CHECK(read + box.overwritten() == n);
  CHECK(read >= n / 2);  // the first half is read in full: reads really overlapped the writes
}

}  // TEST_SUITE
}  // namespace
}  // namespace weft
