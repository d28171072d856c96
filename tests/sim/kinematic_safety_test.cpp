#include <doctest/doctest.h>

#include <cmath>

#include "sim/kinematic_safety.h"

using namespace weft;

namespace {
Pose at(glm::vec3 p, glm::quat q = glm::quat(1.f, 0.f, 0.f, 0.f)) {
  Pose pose;
  pose.position = p;
  pose.orientation = q;
  return pose;
}
}  // namespace

TEST_CASE("kinematic safety: plausible motion is followed exactly, without lag") {
  const KinematicLimits limits;
  SafeTarget s;
  const float h = 1.f / 240;
  for (int k = 0; k < 480; ++k) {
    const float t = k * h;
    // a brisk shake: 6 cm at 3 Hz (peak 21 m/s^2) on top of a 1 m/s sweep
    const glm::vec3 target(t, 1.f + 0.06f * std::sin(2 * 3.14159265f * 3 * t), 0.f);
    const Pose out = advance_safe_target(s, at(target), h, limits);
    if (k >= 10) CHECK(glm::length(out.position - target) < 1e-5f);  // after starting from rest at 1 m/s
  }
  CHECK(glm::length(s.smoothed_velocity) > 0.5f);  // it knows the hand's speed
}

TEST_CASE("kinematic safety: a 3-tick 1 km spike moves the target by about 2 cm, within the caps") {
  const KinematicLimits limits;
  SafeTarget s;
  const float h = 1.f / 240;
  const glm::vec3 hand(0.f, 1.f, 0.f);
  advance_safe_target(s, at(hand), h, limits);
  glm::vec3 prev = s.pose.position, prev_v(0.f);
  float farthest = 0.f;
  for (int k = 0; k < 240; ++k) {
    const glm::vec3 target = (k >= 10 && k < 13) ? hand + glm::vec3(1000.f, 0.f, 0.f) : hand;
    const Pose out = advance_safe_target(s, at(target), h, limits);
    const glm::vec3 v = (out.position - prev) / h;
    CHECK(glm::length(v) <= limits.max_speed * 1.0001f);
    CHECK(glm::length(v - prev_v) <= limits.max_acceleration * h * 1.001f);
    farthest = std::max(farthest, glm::length(out.position - hand));
    prev = out.position;
    prev_v = v;
  }
  CHECK(farthest < 0.03f);  // 3 ticks at 150 m/s^2, then braking
  CHECK(glm::length(s.pose.position - hand) < 1e-3f);  // and it came back
}

TEST_CASE("kinematic safety: never off the stage, and turns no faster than the cap") {
  KinematicLimits limits;
  SafeTarget s;
  const float h = 1.f / 240;
  advance_safe_target(s, at({0.f, 1.f, 0.f}), h, limits);
  for (int k = 0; k < 2400; ++k) {
    const Pose out = advance_safe_target(s, at({0.f, 1.f, 1e6f}), h, limits);
    CHECK(limits.stage.contains(out.position));
  }
  CHECK(s.pose.position.z == doctest::Approx(limits.stage.hi.z));
  // a 90 degree turn requested at once takes (pi/2) / max_angular_speed
  SafeTarget r;
  advance_safe_target(r, at({0.f, 1.f, 0.f}), h, limits);
  const glm::quat turned = glm::angleAxis(3.14159265f / 2, glm::vec3(0.f, 1.f, 0.f));
  int ticks = 0;
  while (std::abs(glm::dot(r.pose.orientation, turned)) < 1.f - 1e-6f && ticks < 1000) {
    const glm::quat before = r.pose.orientation;
    advance_safe_target(r, at({0.f, 1.f, 0.f}, turned), h, limits);
    const float step = 2.f * std::acos(std::min(1.f, std::abs(glm::dot(before, r.pose.orientation))));
    CHECK(step <= limits.max_angular_speed * h * 1.01f);
    ++ticks;
  }
  CHECK(ticks * h == doctest::Approx(3.14159265f / 2 / limits.max_angular_speed).epsilon(0.05));
}

TEST_CASE("kinematic safety: a jump (a tracker back after a gap) is closed at the catch-up time constant") {
  const KinematicLimits limits;
  const float h = 1.f / 240, tau = 0.05f;
  const glm::vec3 before(0.f, 1.f, 0.f), after(0.1f, 1.f, 0.f);  // back 10 cm from where it was lost
  auto fastest = [&](float catch_up, float& end_gap) {
    SafeTarget s;
    advance_safe_target(s, at(before), h, limits, catch_up);
    float top = 0.f;
    for (int k = 0; k < 120; ++k) {
      advance_safe_target(s, at(after), h, limits, catch_up);
      top = std::max(top, glm::length(s.velocity));
    }
    end_gap = glm::length(s.pose.position - after);
    return top;
  };
  float gap_plain = 0.f, gap_tau = 0.f;
  const float plain = fastest(0.f, gap_plain), caught = fastest(tau, gap_tau);
  CHECK(plain > 3.5f);                        // time-optimal: sqrt(2 a d) = 5.5 m/s, whips a held patch
  CHECK(caught <= 0.1f / tau * 1.001f);      // 10 cm / 50 ms: what the elastic alone would do
  CHECK(gap_plain < 1e-4f);
  CHECK(gap_tau < 1e-3f);                     // and it lands within 0.5 s

  // Plausible motion stays exact with the catch-up time set; the jump's mode ends when it lands.
  SafeTarget s;
  for (int k = 0; k < 240; ++k) {
    const glm::vec3 target(k * h * 1.f, 1.f, 0.f);  // 1 m/s sweep
    const Pose out = advance_safe_target(s, at(target), h, limits, tau);
    if (k >= 10) CHECK(glm::length(out.position - target) < 1e-5f);
  }
  CHECK(!s.catching_up);
}

TEST_CASE("kinematic safety: a grab re-anchors a follower still walking from a far sample, and keeps one on the hand") {
  const KinematicLimits limits;
  const float h = 1.f / 240;
  SafeTarget s;
  advance_safe_target(s, at(glm::vec3(1000.f, 1.f, 0.f)), h, limits, 0.02f);  // a 1 km first sample: clamped to the stage
  for (int k = 0; k < 5; ++k) advance_safe_target(s, at(glm::vec3(0.f, 1.f, 0.f)), h, limits, 0.02f);
  CHECK(s.pose.position.x > 19.f);  // still walking back from the stage's wall
  CHECK(reanchor_safe_target(s, at(glm::vec3(0.f, 1.f, 0.f)), h, limits));
  CHECK(s.pose.position == glm::vec3(0.f, 1.f, 0.f));
  CHECK(s.velocity == glm::vec3(0.f));
  // A follower on the hand (moving at 1 m/s) is left as it is.
  SafeTarget on;
  for (int k = 0; k < 60; ++k) advance_safe_target(on, at(glm::vec3(k * h, 1.f, 0.f)), h, limits, 0.02f);
  const SafeTarget before = on;
  CHECK_FALSE(reanchor_safe_target(on, at(glm::vec3(59 * h + 0.001f, 1.f, 0.f)), h, limits));
  CHECK(on.velocity == before.velocity);
}
