#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "sim/pose_track.h"

using namespace weft;

namespace {
PoseSample at(double t, glm::vec3 p, glm::quat q = glm::quat(1.f, 0.f, 0.f, 0.f)) {
  PoseSample s;
  s.time = t;
  s.pose.position = p;
  s.pose.orientation = q;
  return s;
}
}  // namespace

TEST_CASE("pose samples with NaN, Inf, a non-unit quaternion, a false flag or an older time are refused") {
  PoseTrack track;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  CHECK(track.push(at(1.0, {0, 0, 0})) == PoseRejection::Accepted);
  CHECK(track.push(at(1.1, {nan, 0, 0})) == PoseRejection::NonFinite);
  CHECK(track.push(at(1.1, {0, inf, 0})) == PoseRejection::NonFinite);
  CHECK(track.push(at(std::nan(""), {0, 0, 0})) == PoseRejection::NonFinite);
  CHECK(track.push(at(1.1, {0, 0, 0}, glm::quat(1.2f, 0.f, 0.f, 0.f))) == PoseRejection::NonUnit);
  CHECK(track.push(at(0.9, {0, 0, 0})) == PoseRejection::TimeBackwards);
  PoseSample flagged = at(1.2, {0, 0, 0});
  flagged.valid = false;
  CHECK(track.push(flagged) == PoseRejection::Flagged);
  CHECK(track.size() == 1);
  Pose p;
  REQUIRE(track.sample(2.0, 0.0, p));
  CHECK(p.position == glm::vec3(0.f));
}

TEST_CASE("pose track interpolates between samples and extrapolates at most the horizon") {
  PoseTrack track;
  track.push(at(0.0, {0, 0, 0}));
  track.push(at(0.1, {1, 0, 0}, glm::angleAxis(1.f, glm::vec3(0, 1, 0))));
  Pose p;
  REQUIRE(track.sample(0.05, 0.02, p));
  CHECK(p.position.x == doctest::Approx(0.5f));
  CHECK(glm::angle(p.orientation) == doctest::Approx(0.5f).epsilon(1e-4));
  REQUIRE(track.sample(0.11, 0.02, p));  // 10 ms ahead: extrapolated
  CHECK(p.position.x == doctest::Approx(1.1f));
  REQUIRE(track.sample(0.12, 0.02, p));  // at the horizon: the furthest it goes
  CHECK(p.position.x == doctest::Approx(1.2f));
  REQUIRE(track.sample(0.13, 0.02, p));  // then back toward the newest sample
  CHECK(p.position.x == doctest::Approx(1.1f));
  REQUIRE(track.sample(1.0, 0.02, p));  // a silent device rests on its last sample
  CHECK(p.position.x == doctest::Approx(1.f));
  REQUIRE(track.sample(-1.0, 0.02, p));  // before the first sample: held
  CHECK(p.position.x == doctest::Approx(0.f));
}

TEST_CASE("pose track ring keeps the newest samples and a same-time sample replaces the newest") {
  PoseTrack track;
  for (int k = 0; k < 40; ++k) track.push(at(k * 0.01, {float(k), 0, 0}));
  CHECK(track.size() == PoseTrack::kCapacity);
  Pose p;
  REQUIRE(track.sample(0.385, 0.0, p));
  CHECK(p.position.x == doctest::Approx(38.5f));
  CHECK(track.push(at(0.39, {100, 0, 0})) == PoseRejection::Accepted);
  REQUIRE(track.sample(0.39, 0.0, p));
  CHECK(p.position.x == doctest::Approx(100.f));
}
