#include <doctest/doctest.h>

#include <cmath>

#include "sim/mesh_generators.h"
#include "sim/seam_line.h"

using namespace weft;

namespace {

// Two panels side by side: a (columns_a x 4 quads, 0.2 m square) and b (columns_b x rows_b, 0.2 m square)
// 5 cm to its right.
Mesh two_panels(uint32_t rows_b, uint32_t& nb_first) {
  Mesh a = make_grid({.width = 0.2f, .height = 0.2f, .columns = 4, .rows = 8});
  Mesh b = make_grid({.width = 0.2f, .height = 0.2f, .columns = 4, .rows = rows_b});
  nb_first = uint32_t(a.positions.size());
  for (auto p : b.positions) a.positions.push_back(p + glm::vec3(0.25f, 0, 0));
  a.material.insert(a.material.end(), b.material.begin(), b.material.end());
  for (auto t : b.triangles) a.triangles.push_back({t[0] + nb_first, t[1] + nb_first, t[2] + nb_first});
  return a;
}

}  // namespace

TEST_CASE("a border run is the shorter way along one border loop between its two ends") {
  const Mesh m = make_grid({.width = 0.2f, .height = 0.4f, .columns = 4, .rows = 8});
  const Topology t = build_topology(m);
  const char* why = nullptr;
  // the right edge, bottom to top: column 4 of every row
  const std::vector<uint32_t> run = border_run(t, m.positions.data(), 4, 8 * 5 + 4, &why);
  REQUIRE(run.size() == 9);
  for (uint32_t r = 0; r <= 8; ++r) CHECK(run[r] == r * 5 + 4);
  CHECK(why == nullptr);
  // the other way round: the same vertices, reversed
  const std::vector<uint32_t> back = border_run(t, m.positions.data(), 8 * 5 + 4, 4, &why);
  REQUIRE(back.size() == 9);
  CHECK(back.front() == 8 * 5 + 4);
  CHECK(nearest_border_vertex(t, m.positions.data(), m.vertex_count(), glm::vec3(0.21f, 0.19f, 0.01f)) == 4 * 5 + 4);
}

TEST_CASE("border runs refuse ends off the border, on one vertex or on different borders") {
  uint32_t nb = 0;
  const Mesh m = two_panels(8, nb);
  const Topology t = build_topology(m);
  const char* why = nullptr;
  CHECK(border_run(t, m.positions.data(), 4, nb, &why).empty());
  CHECK(std::string(why).find("different borders") != std::string::npos);
  CHECK(border_run(t, m.positions.data(), 4, 4, &why).empty());
  CHECK(std::string(why).find("one border vertex") != std::string::npos);
  CHECK(border_run(t, m.positions.data(), 6, 4, &why).empty());  // vertex 6 is inside
  CHECK(std::string(why).find("not on a border") != std::string::npos);
  CHECK(border_run(t, m.positions.data(), 4, 1000000, &why).empty());
}

TEST_CASE("runs of equal length and nested vertex counts pair vertex to vertex") {
  uint32_t nb = 0;
  const Mesh m = two_panels(4, nb);  // a's right edge: 9 vertices; b's left edge: 5
  const Topology t = build_topology(m);
  const auto a = border_run(t, m.positions.data(), 4, 8 * 5 + 4, nullptr);
  const auto b = border_run(t, m.positions.data(), nb, nb + 4 * 5, nullptr);
  REQUIRE(a.size() == 9);
  REQUIRE(b.size() == 5);
  SeamSet s;
  CHECK(pair_runs(a, b, m.positions.data(), s) == 9);  // b's inner vertices all met by a's
  for (size_t k = 0; k < s.size(); ++k) {
    // every pulled vertex sits at the height of its point: the gap is the 5 cm between the panels
    CHECK(glm::length(seam_gap(s, k, m.positions.data())) == doctest::Approx(0.05f).epsilon(1e-4));
  }
  CHECK(s.c[0] == s.b[0]);
  CHECK(s.w[1] == doctest::Approx(0.5f));  // a's second vertex halfway up b's first edge
}

TEST_CASE("runs of different lengths pair by arc length, both ways, onto edges") {
  uint32_t nb = 0;
  Mesh m = two_panels(3, nb);  // b's left edge: 4 vertices at thirds; a's 9 at eighths
  for (uint32_t i = nb; i < m.vertex_count(); ++i) m.positions[i].y *= 2.f;  // b twice as long
  const Topology t = build_topology(m);
  const auto a = border_run(t, m.positions.data(), 4, 8 * 5 + 4, nullptr);
  const auto b = border_run(t, m.positions.data(), nb, nb + 3 * 5, nullptr);
  REQUIRE(b.size() == 4);
  SeamSet s;
  CHECK(pair_runs(a, b, m.positions.data(), s) == 9 + 2);
  const glm::vec3* x = m.positions.data();
  for (size_t k = 0; k < s.size(); ++k) {
    const glm::vec3 p = (1.f - s.w[k]) * x[s.b[k]] + s.w[k] * x[s.c[k]];
    // a's vertex at height y meets b's point at 2 y, and b's at y meets a's at y / 2
    if (s.a[k] < nb) CHECK(p.y == doctest::Approx(2.f * x[s.a[k]].y).epsilon(1e-4));
    else CHECK(p.y == doctest::Approx(0.5f * x[s.a[k]].y).epsilon(1e-4));
    CHECK(s.w[k] >= 0.f);
    CHECK(s.w[k] <= 1.f);
  }
}

TEST_CASE("a run paired with itself, or a run of one vertex, adds nothing") {
  uint32_t nb = 0;
  const Mesh m = two_panels(4, nb);
  const Topology t = build_topology(m);
  const auto a = border_run(t, m.positions.data(), 4, 8 * 5 + 4, nullptr);
  SeamSet s;
  CHECK(pair_runs(a, a, m.positions.data(), s) == 0);
  CHECK(pair_runs(a, {a[0]}, m.positions.data(), s) == 0);
}

TEST_CASE("edges chain into one run from the end met first, and edges that are not one path are refused") {
  const char* why = nullptr;
  // listed out of order and direction: 7-3, 5-7, 3-9 is the path 5 7 3 9 (5 is the first end met)
  CHECK(chain_edges({{7, 3}, {5, 7}, {3, 9}}, &why) == std::vector<uint32_t>{5, 7, 3, 9});
  CHECK(chain_edges({{3, 9}, {7, 3}, {5, 7}}, &why) == std::vector<uint32_t>{9, 3, 7, 5});
  CHECK(chain_edges({{1, 2}}, &why) == std::vector<uint32_t>{1, 2});
  auto refused = [&](std::vector<std::array<uint32_t, 2>> edges) {
    why = nullptr;
    CHECK(chain_edges(edges, &why).empty());
    return std::string(why ? why : "");
  };
  CHECK(refused({}).find("at least one edge") != std::string::npos);
  CHECK(refused({{1, 1}}).find("itself") != std::string::npos);
  CHECK(refused({{1, 2}, {2, 1}}).find("twice") != std::string::npos);
  CHECK(refused({{1, 2}, {2, 3}, {2, 4}}).find("branch") != std::string::npos);
  CHECK(refused({{1, 2}, {2, 3}, {3, 1}}).find("loop") != std::string::npos);
  CHECK(refused({{1, 2}, {3, 4}}).find("pieces") != std::string::npos);
}

TEST_CASE("pair_runs_at_rest sews a cut's two lips back where they were, or adds nothing off one line") {
  // a: 0, 0.1, 0.2 (vertices 0-2); b: 0, 0.05, ..., 0.25 (vertices 3-8), the last beyond a's end
  std::vector<glm::vec3> rest = {{0, 0, 0}, {0.1f, 0, 0}, {0.2f, 0, 0}};
  for (int k = 0; k < 6; ++k) rest.push_back({0.05f * float(k), 0, 0});
  const std::vector<uint32_t> a = {0, 1, 2}, b = {3, 4, 5, 6, 7, 8};
  SeamSet seams;
  CHECK(pair_runs_at_rest(a, b, rest.data(), 1e-3f, seams) == 5);
  // a's vertices onto b's coincident ones; b's between them onto the middle of a's edges; b's last left out
  CHECK(seams.a[0] == 0);
  CHECK(seams.b[0] == 3);
  CHECK(seams.c[0] == 3);
  CHECK(seams.b[1] == 5);
  CHECK(seams.b[2] == 7);
  CHECK(seams.a[3] == 4);
  CHECK(seams.w[3] == doctest::Approx(0.5f));
  CHECK(seams.a[4] == 6);
  for (size_t k = 0; k < seams.size(); ++k) CHECK(seams.a[k] != 8);
  // a run 1 cm off the other's line: nothing added (World::sew pairs it by arc length instead)
  for (int k = 3; k < 9; ++k) rest[size_t(k)].y = 0.01f;
  SeamSet none;
  CHECK(pair_runs_at_rest(a, b, rest.data(), 1e-3f, none) == 0);
  CHECK(none.size() == 0);
}
