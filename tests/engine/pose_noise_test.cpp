#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "engine/pose_noise.h"

namespace weft {
namespace {

PoseSample sample_at(int k, Device d = Device::LeftHand) {
  PoseSample s;
  s.time = k / 90.0;
  s.device = d;
  s.pose.position = glm::vec3(0.01f * float(k), 1.f, 0.f);  // 0.9 m/s along x
  return s;
}

NoiseProfile only(const char* spec) { return noise_profile(spec); }

}  // namespace

TEST_CASE("pose noise: profiles parse, overrides apply, bad specs are refused with a message") {
  CHECK(!noise_profile("none").any());
  CHECK(noise_profile("jitter2").position_sigma_m == doctest::Approx(0.002));
  CHECK(noise_profile("jitter10").orientation_sigma_deg == doctest::Approx(3.0));
  CHECK(noise_profile("spikes").spike_magnitude_m == doctest::Approx(100.0));
  CHECK(noise_profile("none,latency_s=0.05").latency_s == doctest::Approx(0.05));
  CHECK(noise_profile_names().size() == 7);
  CHECK_THROWS_AS(noise_profile("loud"), std::invalid_argument);
  CHECK_THROWS_AS(noise_profile("none,latency_s"), std::invalid_argument);
  CHECK_THROWS_AS(noise_profile("none,latency_s=abc"), std::invalid_argument);
  CHECK_THROWS_AS(noise_profile("none,volume=3"), std::invalid_argument);
  CHECK_THROWS_AS(noise_profile("none,latency_s=-1"), std::invalid_argument);
}

TEST_CASE("pose noise: none leaves samples untouched; same seed, same noise") {
  PoseNoise clean(only("none"), 1);
  for (int k = 0; k < 100; ++k) {
    PoseSample s = sample_at(k);
    REQUIRE(clean.apply(s));
    CHECK(s.pose.position == sample_at(k).pose.position);
    CHECK(s.time == sample_at(k).time);
  }
  PoseNoise a(only("all"), 9), b(only("all"), 9), c(only("all"), 10);
  int differ = 0;
  for (int k = 0; k < 300; ++k) {
    PoseSample sa = sample_at(k), sb = sample_at(k), sc = sample_at(k);
    const bool ka = a.apply(sa), kb = b.apply(sb), kc = c.apply(sc);
    REQUIRE(ka == kb);
    if (ka) {
      CHECK(sa.time == sb.time);
      CHECK(std::memcmp(&sa.pose, &sb.pose, sizeof sa.pose) == 0);
    }
    if (ka != kc || (ka && sa.pose.position != sc.pose.position)) ++differ;
  }
  CHECK(differ > 100);  // another seed, another stream
}

TEST_CASE("pose noise: Gaussian jitter has the profile's sigma in position and orientation") {
  PoseNoise noise(only("jitter10"), 2);
  double sp = 0, sa = 0;
  const int n = 20000;
  for (int k = 0; k < n; ++k) {
    PoseSample s = sample_at(0);
    REQUIRE(noise.apply(s));
    const glm::vec3 d = s.pose.position - sample_at(0).pose.position;
    sp += glm::dot(d, d);
    const float angle = 2.f * std::acos(std::min(1.f, std::abs(s.pose.orientation.w)));
    sa += double(angle) * angle;
  }
  CHECK(std::sqrt(sp / (3.0 * n)) == doctest::Approx(0.010).epsilon(0.03));  // per axis
  CHECK(std::sqrt(sa / (3.0 * n)) == doctest::Approx(glm::radians(3.0)).epsilon(0.03));
}

TEST_CASE("pose noise: spikes at the profile's rate and magnitude") {
  PoseNoise noise(only("spikes"), 3);
  int spikes = 0;
  const int n = 20000;
  for (int k = 0; k < n; ++k) {
    PoseSample s = sample_at(k);
    REQUIRE(noise.apply(s));
    const float d = glm::length(s.pose.position - sample_at(k).pose.position);
    if (noise.last_was_spike()) {
      ++spikes;
      CHECK(d == doctest::Approx(100.0).epsilon(1e-4));
    } else {
      CHECK(d == 0.f);
    }
  }
  CHECK(spikes == int(noise.stats().spikes));
  CHECK(spikes / double(n) == doctest::Approx(0.01).epsilon(0.15));
  PoseNoise km(only("spikes,spike_magnitude_m=5000,spike_probability=1"), 3);
  PoseSample s = sample_at(1);
  km.apply(s);
  CHECK(glm::length(s.pose.position - sample_at(1).pose.position) == doctest::Approx(5000.0).epsilon(1e-4));
}

TEST_CASE("pose noise: dropouts lose samples or freeze the last delivered pose") {
  PoseNoise noise(only("dropouts"), 4);
  int lost = 0, frozen = 0;
  const int n = 20000;
  glm::vec3 last(0.f);
  for (int k = 0; k < n; ++k) {
    PoseSample s = sample_at(k);
    if (!noise.apply(s)) {
      ++lost;
      continue;
    }
    if (s.pose.position != sample_at(k).pose.position) {
      ++frozen;
      CHECK(s.pose.position == last);  // the previous delivered pose, new timestamp
      CHECK(s.time == sample_at(k).time);
    }
    last = s.pose.position;
  }
  CHECK(uint64_t(lost) == noise.stats().dropped);
  CHECK(uint64_t(frozen) == noise.stats().frozen);
  CHECK((lost + frozen) / double(n) == doctest::Approx(0.20).epsilon(0.05));
  CHECK(lost / double(lost + frozen) == doctest::Approx(0.5).epsilon(0.1));
}

TEST_CASE("pose noise: latency delivers an older pose; timestamp jitter has its sigma; time can go backwards") {
  PoseNoise late(only("none,latency_s=0.05"), 5);
  for (int k = 0; k < 40; ++k) {
    PoseSample s = sample_at(k);
    REQUIRE(late.apply(s));
    const int older = std::max(0, k - 5);  // 0.05 s at 90 Hz: 4.5 samples -> the sample 5 back
    CHECK(s.pose.position == sample_at(older).pose.position);
    CHECK(s.time == sample_at(k).time);
  }
  PoseNoise jitter(only("none,timestamp_jitter_s=0.002"), 6);
  double s2 = 0;
  for (int k = 0; k < 10000; ++k) {
    PoseSample s = sample_at(k);
    jitter.apply(s);
    s2 += (s.time - sample_at(k).time) * (s.time - sample_at(k).time);
  }
  CHECK(std::sqrt(s2 / 10000) == doctest::Approx(0.002).epsilon(0.05));
  PoseNoise back(only("none,backwards_probability=0.1"), 7);
  double newest = 0;
  int went_back = 0;
  for (int k = 0; k < 1000; ++k) {
    PoseSample s = sample_at(k);
    back.apply(s);
    if (s.time < newest) ++went_back;
    newest = std::max(newest, s.time);
  }
  // every backwards sample is older than the previous true sample; after two in a row it may not be
  // older than the newest delivered one, so a few are not seen going back here
  CHECK(went_back <= int(back.stats().backwards));
  CHECK(went_back >= int(back.stats().backwards) - 6);
  CHECK(went_back > 60);
}

TEST_CASE("pose noise: non-finite bursts and non-normalised quaternions") {
  PoseNoise nan(only("none,nan_probability=0.01,nan_burst=10"), 8);
  int bad = 0, longest = 0, run = 0;
  for (int k = 0; k < 20000; ++k) {
    PoseSample s = sample_at(k);
    nan.apply(s);
    const bool finite = std::isfinite(s.pose.position.y) && std::isfinite(s.pose.orientation.x);
    if (!finite) ++bad, ++run, longest = std::max(longest, run);
    else run = 0;
  }
  CHECK(bad == int(nan.stats().non_finite));
  CHECK(longest >= 10);
  CHECK(bad / 20000.0 == doctest::Approx(10 * 0.01 / (1 + 10 * 0.01)).epsilon(0.2));
  PoseNoise scaled(only("none,nonunit_probability=1"), 9);
  int off = 0;
  for (int k = 0; k < 100; ++k) {
    PoseSample s = sample_at(k);
    scaled.apply(s);
    const float len = glm::length(s.pose.orientation);
    CHECK(len <= 1.3f + 1e-5f);
    CHECK(len >= 0.7f - 1e-5f);
    if (std::abs(len - 1.f) > 1e-3f) ++off;
  }
  CHECK(off > 90);
}

}  // namespace weft
