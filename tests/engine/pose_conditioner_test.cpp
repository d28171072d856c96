#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "engine/pose_conditioner.h"

namespace weft {
namespace {

PoseSample at(double t, glm::vec3 p) {
  PoseSample s;
  s.time = t;
  s.pose.position = p;
  return s;
}

}  // namespace

TEST_CASE("conditioning: validity checks reject flagged, non-finite, far-off quaternions and time going back") {
  PoseConditioner c;
  PoseSample s = at(0.0, glm::vec3(0.f, 1.f, 0.f));
  CHECK(c.condition(s) == ConditionVerdict::Accepted);
  s = at(0.011, glm::vec3(0.f, 1.f, 0.f));
  s.valid = false;
  CHECK(c.condition(s) == ConditionVerdict::Flagged);
  s = at(0.011, glm::vec3(std::numeric_limits<float>::quiet_NaN(), 1.f, 0.f));
  CHECK(c.condition(s) == ConditionVerdict::NonFinite);
  s = at(std::numeric_limits<double>::infinity(), glm::vec3(0.f, 1.f, 0.f));
  CHECK(c.condition(s) == ConditionVerdict::NonFinite);
  s = at(0.011, glm::vec3(0.f, 1.f, 0.f));
  s.pose.orientation = glm::quat(0.f, 0.f, 0.f, 0.f);
  CHECK(c.condition(s) == ConditionVerdict::BadQuaternion);
  s.pose.orientation = glm::quat(1.1f, 0.f, 0.f, 0.f);  // slightly off: renormalised
  CHECK(c.condition(s) == ConditionVerdict::Accepted);
  CHECK(glm::length(s.pose.orientation) == doctest::Approx(1.0).epsilon(1e-6));
  s = at(0.005, glm::vec3(0.f, 1.f, 0.f));
  CHECK(c.condition(s) == ConditionVerdict::TimeBackwards);
  CHECK(c.rejected() == 5);
  CHECK(c.count(ConditionVerdict::NonFinite) == 2);
}

TEST_CASE("conditioning: a 100 m spike is gated, the hand keeps going, a real relocation is re-acquired") {
  PoseConditioner c;
  double t = 0;
  glm::vec3 p(0.f, 1.f, 0.f);
  for (int k = 0; k < 10; ++k, t += 1.0 / 90) {
    PoseSample s = at(t, p + glm::vec3(0.02f * k, 0.f, 0.f));  // 1.8 m/s
    CHECK(c.condition(s) == ConditionVerdict::Accepted);
  }
  PoseSample spike = at(t, p + glm::vec3(100.f, 0.f, 0.f));
  CHECK(c.condition(spike) == ConditionVerdict::Outlier);
  t += 1.0 / 90;
  PoseSample next = at(t, p + glm::vec3(0.2f, 0.f, 0.f));
  CHECK(c.condition(next) == ConditionVerdict::Accepted);
  // The tracker really moved 10 m (re-mounted): refused for reacquire_s, then accepted.
  int refused = 0;
  bool back = false;
  for (int k = 0; k < 40 && !back; ++k) {
    t += 1.0 / 90;
    PoseSample s = at(t, p + glm::vec3(10.2f, 0.f, 0.f));
    if (c.condition(s) == ConditionVerdict::Outlier) ++refused;
    else back = true;
  }
  CHECK(back);
  CHECK(refused * (1.0 / 90) >= c.config().reacquire_s - 1e-9);
  CHECK(refused * (1.0 / 90) <= c.config().reacquire_s + 2.0 / 90);
  CHECK(c.reacquired() == 1);
  // Random spikes never re-acquire, however long they last, because they are not consistent.
  PoseConditioner d;
  PoseSample s0 = at(0, p);
  d.condition(s0);
  for (int k = 1; k < 100; ++k) {
    PoseSample s = at(k / 90.0, p + glm::vec3(k % 2 ? 100.f : -100.f, 0.f, 0.f));
    CHECK(d.condition(s) == ConditionVerdict::Outlier);
  }
}

TEST_CASE("conditioning: the One Euro filter reduces jitter of a still hand and lags little when it moves") {
  CHECK(one_euro_alpha(1.0, 1.0 / 90) == doctest::Approx(1.0 / (1.0 + 90.0 / (2.0 * 3.141592653589793))));
  ConditionerConfig cfg;
  cfg.one_euro.enabled = true;
  PoseConditioner c(cfg);
  double raw = 0, filtered = 0;
  for (int k = 0; k < 500; ++k) {
    const float j = 0.005f * float((k * 7919) % 13 - 6) / 6.f;  // deterministic +-5 mm jitter
    PoseSample s = at(k / 90.0, glm::vec3(j, 1.f, 0.f));
    REQUIRE(c.condition(s) == ConditionVerdict::Accepted);
    if (k > 50) raw += double(j) * j, filtered += double(s.pose.position.x) * s.pose.position.x;
  }
  CHECK(filtered < 0.25 * raw);
  // a steady 1 m/s motion: lag stays under 5 cm
  PoseConditioner m(cfg);
  float lag = 0;
  for (int k = 0; k < 180; ++k) {
    PoseSample s = at(k / 90.0, glm::vec3(k / 90.f, 1.f, 0.f));
    m.condition(s);
    lag = k / 90.f - s.pose.position.x;
  }
  CHECK(lag > 0.f);
  CHECK(lag < 0.05f);
}

// Issue 16, item 4: the first sample is not trusted blindly.
TEST_CASE("conditioning: a first sample 1 km away is refused and the good samples after it accepted at once") {
  PoseConditioner c;
  const glm::vec3 hand(0.2f, 1.1f, 0.3f);
  PoseSample bad = at(0.0, hand + glm::vec3(1000.f, 0.f, 0.f));
  CHECK(c.condition(bad) == ConditionVerdict::OffStage);
  double first_accepted = -1;
  for (int k = 1; k < 30; ++k) {
    PoseSample s = at(k / 90.0, hand);
    if (c.condition(s) == ConditionVerdict::Accepted && first_accepted < 0) first_accepted = k / 90.0;
  }
  CHECK(first_accepted >= 0.0);
  CHECK(first_accepted - 1 / 90.0 <= 0.05);
  CHECK(c.count(ConditionVerdict::Outlier) == 0);
  CHECK(c.count(ConditionVerdict::OffStage) == 1);
}

TEST_CASE("conditioning: a wrong first sample on the stage gives way to the good samples within 0.05 s") {
  PoseConditioner c;
  const glm::vec3 hand(0.2f, 1.1f, 0.3f);
  PoseSample bad = at(0.0, hand + glm::vec3(3.f, 0.f, 0.f));  // on the stage, 3 m off
  CHECK(c.condition(bad) == ConditionVerdict::Accepted);
  double accepted_at = -1;
  int accepted = 0;
  for (int k = 1; k < 60; ++k) {
    PoseSample s = at(k / 90.0, hand + glm::vec3(0.001f * float(k), 0.f, 0.f));
    if (c.condition(s) == ConditionVerdict::Accepted) {
      ++accepted;
      if (accepted_at < 0) accepted_at = k / 90.0;
    }
  }
  INFO("first good sample accepted ", accepted_at - 1 / 90.0, " s after the first good one");
  CHECK(accepted_at > 0.0);
  CHECK(accepted_at - 1 / 90.0 <= 0.05);
  CHECK(accepted == 59 - 1);  // only the first good sample (it disagrees with the bad one) was refused
  // Once trusted, a device is not re-acquired by two agreeing samples: that takes reacquire_s.
  PoseSample far1 = at(61 / 90.0, hand + glm::vec3(5.f, 0.f, 0.f)), far2 = at(62 / 90.0, hand + glm::vec3(5.f, 0.f, 0.f));
  CHECK(c.condition(far1) == ConditionVerdict::Outlier);
  CHECK(c.condition(far2) == ConditionVerdict::Outlier);
}

}  // namespace weft
