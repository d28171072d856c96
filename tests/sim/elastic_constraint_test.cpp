#include <doctest/doctest.h>

#include <cmath>

#include "sim/elastic_constraint.h"
#include "sim/pose.h"

using namespace weft;

TEST_CASE("elastic velocity shrinks the offset to a static target by exp(-h/tau) per step") {
  const ElasticParams params{0.05f, 100.f};
  const float h = 1.f / 240;
  const glm::vec3 target(0.1f, 0.f, 0.f);
  glm::vec3 x(0.f);
  for (int k = 1; k <= 24; ++k) {
    x += h * elastic_velocity(x, target, target, h, params);
    CHECK(glm::length(target - x) == doctest::Approx(0.1f * std::exp(-k * h / params.tau)).epsilon(1e-4));
  }
}

TEST_CASE("elastic velocity follows a moving target and is capped") {
  const float h = 0.01f;
  const glm::vec3 v = elastic_velocity({0, 0, 0}, {0, 0, 0}, {0.01f, 0, 0}, h, {0.1f, 10.f});
  CHECK(v.x == doctest::Approx(1.f));  // on target: just the target's velocity
  const glm::vec3 far = elastic_velocity({0, 0, 0}, {1000, 0, 0}, {2000, 0, 0}, h, {0.1f, 3.f});
  CHECK(glm::length(far) == doctest::Approx(3.f));
  CHECK(far.x > 0.f);
}

TEST_CASE("accumulated demands: full weight becomes kinematic, a rim gets a partial correction, pins win") {
  ElasticAccumulator acc;
  acc.resize(4);
  acc.add(0, 1.f, {1, 0, 0});  // core
  acc.add(1, 0.5f, {1, 0, 0}); // rim
  acc.add(2, 1.f, {1, 0, 0});  // two hands on one vertex: average
  acc.add(2, 1.f, {0, 1, 0});
  acc.add(3, 1.f, {1, 0, 0});  // pinned
  glm::vec3 v[4] = {};
  uint8_t kin[4] = {0, 0, 0, 1};
  glm::vec3 kv[4] = {};
  apply_elastic_demands(acc, v, kin, kv);
  CHECK(kin[0] == 1);
  CHECK(kv[0].x == doctest::Approx(1.f));
  CHECK(kin[1] == 0);
  CHECK(v[1].x == doctest::Approx(0.5f));
  CHECK(kv[2].x == doctest::Approx(0.5f));
  CHECK(kv[2].y == doctest::Approx(0.5f));
  CHECK(kv[3] == glm::vec3(0.f));
  acc.clear();
  CHECK(acc.touched.empty());
  CHECK(acc.weight[2] == 0.f);
}

TEST_CASE("a held patch asked for more than the velocity cap keeps its shape: the cap is shared by the set") {
  // Three held vertices asked for about 4 m/s along x, more than the cap's change in a tick; vertex 2
  // already moves 0.2 m/s faster than the others (dragged ahead) and is asked for 0.2 m/s less.
  const float cap = 400.f / 240.f;
  ElasticSet set;
  set.vertex = {0, 1, 2};
  set.offset = {{0, 0, 0}, {0.02f, 0, 0}, {0.04f, 0, 0}};
  set.weight = {1, 1, 1};
  const glm::vec3 want[3] = {{4.f, 0, 0}, {4.f, 0, 0}, {3.8f, 0, 0}};
  auto run = [&](bool shared, glm::vec3 kv[3]) {
    ElasticAccumulator acc;
    acc.resize(3);
    for (uint32_t i = 0; i < 3; ++i) acc.add(i, 1.f, want[i]);
    glm::vec3 v[3] = {{0, 0, 0}, {0, 0, 0}, {0.2f, 0, 0}};
    uint8_t kin[3] = {};
    if (shared) share_velocity_change(set, v, kin, acc);
    apply_elastic_demands(acc, v, kin, kv, cap);
    for (int i = 0; i < 3; ++i) CHECK(kin[i] == 1);
    return (kv[0] + kv[1] + kv[2] - v[0] - v[1] - v[2]) / 3.f;  // the patch's mean change
  };
  // Capped vertex by vertex, each gets its own velocity plus the same capped change (the cap keeps only
  // the demand's direction): vertex 2 stays 0.2 m/s ahead, tick after tick, and held vertices, which no
  // strain limit moves, drift apart (the table demo's shaken patch under noisy tracking: 268 %).
  glm::vec3 alone[3];
  run(false, alone);
  CHECK(alone[2].x - alone[0].x == doctest::Approx(0.2f));
  // Shared, the set's mean change is capped and each vertex's deviation from it is kept: the patch
  // moves by the capped change as a whole and vertex 2 comes back (0.2 m/s slower than the others).
  glm::vec3 shared[3];
  const glm::vec3 mean = run(true, shared);
  CHECK(glm::length(mean) == doctest::Approx(cap));
  CHECK(shared[2].x - shared[0].x == doctest::Approx(-0.2f));
  CHECK(shared[1].x - shared[0].x == doctest::Approx(0.f));
}

TEST_CASE("sharing the cap changes nothing when no vertex is capped") {
  ElasticSet set;
  set.vertex = {0, 1};
  set.offset = {{0, 0, 0}, {0.02f, 0, 0}};
  set.weight = {1, 1};
  ElasticAccumulator acc;
  acc.resize(2);
  acc.add(0, 1.f, {0.5f, 0.1f, 0});
  acc.add(1, 1.f, {0.3f, -0.2f, 0.1f});
  glm::vec3 v[2] = {{0.1f, 0, 0}, {0, 0.2f, 0}};
  uint8_t kin[2] = {};
  glm::vec3 kv[2];
  share_velocity_change(set, v, kin, acc);
  apply_elastic_demands(acc, v, kin, kv, 400.f / 240.f);
  CHECK(glm::length(kv[0] - glm::vec3(0.5f, 0.1f, 0)) < 1e-6f);
  CHECK(glm::length(kv[1] - glm::vec3(0.3f, -0.2f, 0.1f)) < 1e-6f);
}
