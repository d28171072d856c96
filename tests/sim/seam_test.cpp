#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "sim/seam.h"

using namespace weft;

TEST_CASE("seams keep the pair's momentum and close the gap at the elastic rate") {
  SeamSet seams;
  seams.add(0, 1);
  const float mass[2] = {1.f, 3.f}, inv_mass[2] = {1.f, 1.f / 3.f};
  uint8_t kinematic[2] = {0, 0};
  glm::vec3 kv[2] = {};
  std::vector<uint32_t> driven;
  driven.reserve(2);
  glm::vec3 x[2] = {{0, 0, 0}, {0.1f, 0, 0}};
  glm::vec3 v[2] = {{0, 1, 0}, {0, 0, 0}};
  const float h = 0.01f;
  const ElasticParams params{0.05f, 10.f};
  apply_seams(seams, inv_mass, kinematic, kv, x, v, h, glm::vec3(0.f), params, 1e-3f, driven);
  const glm::vec3 p = mass[0] * v[0] + mass[1] * v[1];
  CHECK(p.y == doctest::Approx(1.f));
  CHECK(p.x == doctest::Approx(0.f).epsilon(1e-6));
  const float gap = glm::length((x[1] + h * v[1]) - (x[0] + h * v[0]));
  CHECK(gap == doctest::Approx(0.1f * std::exp(-h / params.tau)).epsilon(1e-4));
  CHECK(seams.sewn[0] == 0);
  // open: both vertices driven through the step at their corrected velocity (Volino's (B))
  CHECK(driven.size() == 2);
  CHECK(kinematic[0] == 1);
  CHECK(kinematic[1] == 1);
  CHECK(kv[0] == v[0]);
  CHECK(kv[1] == v[1]);
}

TEST_CASE("a vertex is pulled toward a point on an edge: the gap closes, the momentum of the three is kept") {
  SeamSet seams;
  seams.add(0, 1, 2, 0.25f);
  const float mass[3] = {2.f, 1.f, 1.f}, inv_mass[3] = {0.5f, 1.f, 1.f};
  uint8_t kinematic[3] = {0, 0, 0};
  glm::vec3 kv[3] = {};
  std::vector<uint32_t> driven;
  driven.reserve(3);
  glm::vec3 x[3] = {{0.1f, 0.05f, 0}, {0, 0, 0}, {0.2f, 0, 0}};  // the point is (0.05, 0, 0)
  glm::vec3 v[3] = {{0, 0, 1}, {0, 0, 0}, {0, 0, 0}};
  const float h = 0.01f;
  const ElasticParams params{0.05f, 10.f};
  const glm::vec3 p0 = mass[0] * v[0] + mass[1] * v[1] + mass[2] * v[2];
  const float gap0 = glm::length(seam_gap(seams, 0, x));
  apply_seams(seams, inv_mass, kinematic, kv, x, v, h, glm::vec3(0.f), params, 1e-3f, driven);
  const glm::vec3 p1 = mass[0] * v[0] + mass[1] * v[1] + mass[2] * v[2];
  CHECK(glm::length(p1 - p0) < 1e-6f);
  for (int i = 0; i < 3; ++i) x[i] += h * v[i];
  CHECK(glm::length(seam_gap(seams, 0, x)) == doctest::Approx(gap0 * std::exp(-h / params.tau)).epsilon(1e-4));
}

TEST_CASE("a pair closer than the sew gap is sewn: kept together without adding kinetic energy") {
  SeamSet seams;
  seams.add(0, 1, 2, 0.5f);
  const float mass[3] = {1.f, 2.f, 2.f}, inv_mass[3] = {1.f, 0.5f, 0.5f};
  uint8_t kinematic[3] = {0, 0, 0};
  glm::vec3 kv[3] = {};
  std::vector<uint32_t> driven;
  driven.reserve(3);
  glm::vec3 x[3] = {{0.1f, 0.0005f, 0}, {0, 0, 0}, {0.2f, 0, 0}};
  glm::vec3 v[3] = {{0, 2, 0}, {0, -1, 0}, {1, 0, 0}};
  auto energy = [&] { return 0.5f * (mass[0] * glm::dot(v[0], v[0]) + mass[1] * glm::dot(v[1], v[1]) + mass[2] * glm::dot(v[2], v[2])); };
  const glm::vec3 p0 = mass[0] * v[0] + mass[1] * v[1] + mass[2] * v[2];
  const float e0 = energy();
  apply_seams(seams, inv_mass, kinematic, kv, x, v, 0.01f, glm::vec3(0.f), ElasticParams{0.05f, 10.f}, 1e-3f, driven);
  CHECK(seams.sewn[0] == 1);
  CHECK(glm::length(seam_gap(seams, 0, x)) < 1e-6f);                    // projected closed
  CHECK(glm::length(v[0] - 0.5f * (v[1] + v[2])) < 1e-6f);               // moving together
  CHECK(glm::length(mass[0] * v[0] + mass[1] * v[1] + mass[2] * v[2] - p0) < 1e-5f);
  CHECK(energy() <= e0);
  CHECK(driven.empty());  // sewn: left free
  // far apart again (a hand tore at it): still sewn, pulled straight back
  x[0].y = 0.05f;
  apply_seams(seams, inv_mass, kinematic, kv, x, v, 0.01f, glm::vec3(0.f), ElasticParams{0.05f, 10.f}, 1e-3f, driven);
  CHECK(seams.sewn[0] == 1);
  CHECK(glm::length(seam_gap(seams, 0, x)) < 1e-6f);
}

TEST_CASE("a held vertex counts as infinitely heavy, and a pair of held vertices is left alone") {
  SeamSet seams;
  seams.add(0, 1);
  const float inv_mass[2] = {1.f, 1.f};
  uint8_t kinematic[2] = {1, 0};
  glm::vec3 kv[2] = {};
  std::vector<uint32_t> driven;
  driven.reserve(2);
  glm::vec3 x[2] = {{0, 0, 0}, {0.0005f, 0, 0}};
  glm::vec3 v[2] = {{0, 1, 0}, {0, 0, 0}};
  apply_seams(seams, inv_mass, kinematic, kv, x, v, 0.01f, glm::vec3(0.f), ElasticParams{}, 1e-3f, driven);
  CHECK(x[0] == glm::vec3(0.f));
  CHECK(v[0] == glm::vec3(0, 1, 0));
  CHECK(glm::length(x[1]) < 1e-7f);
  CHECK(glm::length(v[1] - v[0]) < 1e-6f);
  kinematic[1] = 1;
  x[1].x = 0.1f;
  apply_seams(seams, inv_mass, kinematic, kv, x, v, 0.01f, glm::vec3(0.f), ElasticParams{}, 1e-3f, driven);
  CHECK(x[1].x == 0.1f);
}

TEST_CASE("seam_gap_max is the largest gap, 0 without seams") {
  SeamSet seams;
  const glm::vec3 x[3] = {{0, 0, 0}, {0.3f, 0, 0}, {0, 0.4f, 0}};
  CHECK(seam_gap_max(seams, x) == 0.f);
  seams.add(0, 1);
  seams.add(0, 2);
  CHECK(seam_gap_max(seams, x) == doctest::Approx(0.4f));
}

TEST_CASE("close_sewn_seams closes sewn pairs only, keeping their mass-weighted centre") {
  SeamSet seams;
  seams.add(0, 1);
  seams.add(2, 3);
  seams.sewn = {1, 0};
  const float inv_mass[4] = {1.f, 0.5f, 1.f, 1.f};
  const uint8_t kinematic[4] = {0, 0, 0, 0};
  glm::vec3 x[4] = {{0, 0, 0}, {0.003f, 0, 0}, {0, 1, 0}, {0.003f, 1, 0}};
  glm::vec3 v[4] = {{-1, 0, 0}, {1, 0, 0}, {-1, 0, 0}, {1, 0, 0}};
  close_sewn_seams(seams, inv_mass, kinematic, x, v);
  CHECK(glm::length(x[0] - x[1]) < 1e-7f);
  CHECK(x[0].x == doctest::Approx(0.002f));  // masses 1 and 2: the centre 2/3 of the way
  CHECK(x[3].x == 0.003f);                   // open: left to the elastics
  CHECK(glm::length(v[0] - v[1]) < 1e-6f);   // sewn: moving together, the momentum kept
  CHECK(v[0].x == doctest::Approx(1.f / 3.f));
  CHECK(v[3].x == 1.f);
}

TEST_CASE("driven seam vertices fall with gravity, and the next pair never overflows the driven list") {
  SeamSet seams;
  seams.add(0, 1);
  seams.add(2, 3);
  const float inv_mass[4] = {1.f, 1.f, 1.f, 1.f};
  uint8_t kinematic[4] = {0, 0, 0, 0};
  glm::vec3 kv[4] = {};
  glm::vec3 x[4] = {{0, 0, 0}, {0.1f, 0, 0}, {0, 1, 0}, {0.1f, 1, 0}};
  glm::vec3 v[4] = {};
  std::vector<uint32_t> driven;
  driven.reserve(3);  // room for three: the fourth vertex stays free
  const float h = 0.01f;
  apply_seams(seams, inv_mass, kinematic, kv, x, v, h, glm::vec3(0, -10, 0), ElasticParams{0.05f, 10.f}, 1e-3f, driven);
  CHECK(driven.size() == 3);
  CHECK(driven.capacity() == 3);
  CHECK(kinematic[3] == 0);
  CHECK(kv[0].y == doctest::Approx(-0.1f));  // h g
  CHECK(kv[0].x > 0.f);                        // toward its pair
}

TEST_CASE("piece_masses: each vertex gets the mass of its edge-connected piece, a pinned piece is infinitely heavy") {
  // two pieces: 0-1-2 and 3-4; vertex 4 pinned in the second call
  const std::vector<std::array<uint32_t, 2>> edges = {{0, 1}, {1, 2}, {3, 4}};
  const float mass[5] = {1.f, 2.f, 3.f, 0.5f, 0.25f};
  std::vector<float> out;
  piece_masses(5, edges, mass, nullptr, out);
  REQUIRE(out.size() == 5);
  for (int i : {0, 1, 2}) CHECK(out[i] == doctest::Approx(6.f));
  for (int i : {3, 4}) CHECK(out[i] == doctest::Approx(0.75f));
  const uint8_t pinned[5] = {0, 0, 0, 0, 1};
  piece_masses(5, edges, mass, pinned, out);
  CHECK(std::isinf(out[3]));
  CHECK(out[0] == doctest::Approx(6.f));
}

TEST_CASE("an open seam between a heavy piece and a light one moves the light piece's side only") {
  // vertex 0 on a piece 3x heavier than vertex 1's: the gap closes at the same rate, vertex 0 keeps its velocity
  const float inv_mass[2] = {1.f, 1.f};
  for (const float heavy : {3.f, 1.5f}) {
    SeamSet seams;
    seams.add(0, 1);
    const float piece[2] = {heavy, 1.f};
    uint8_t kinematic[2] = {0, 0};
    glm::vec3 kv[2] = {};
    std::vector<uint32_t> driven;
    driven.reserve(2);
    glm::vec3 x[2] = {{0, 0, 0}, {0.1f, 0, 0}};
    glm::vec3 v[2] = {{0, 0, 0}, {0, 0, 0}};
    const float h = 0.01f;
    const ElasticParams params{0.05f, 10.f};
    apply_seams(seams, inv_mass, kinematic, kv, x, v, h, glm::vec3(0.f), params, 1e-3f, driven, piece);
    const float gap = glm::length((x[1] + h * v[1]) - (x[0] + h * v[0]));
    CHECK(gap == doctest::Approx(0.1f * std::exp(-h / params.tau)).epsilon(1e-4));
    if (heavy > kSeamAnchorRatio) {
      CHECK(v[0] == glm::vec3(0.f));  // the heavy piece's side stays
      CHECK(v[1].x < 0.f);
    } else {  // comparable pieces meet halfway, by their vertices' masses
      CHECK(v[0].x == doctest::Approx(-v[1].x));
      CHECK(v[0].x > 0.f);
    }
  }
}
