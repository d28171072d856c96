#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "sim/bvh.h"
#include "sim/contour_untangle.h"
#include "sim/intersection_count.h"
#include "sim/mesh_generators.h"

using namespace weft;

TEST_CASE("crossing segment: the ends are the edge-triangle crossings, with their features and weights") {
  // A in z = 0; B in the plane x = 0.25 crosses it along y in [0.1, 0.6] (worked by hand: B's edge
  // (3, 4) meets z = 0 at y = 0.1, its edge (5, 3) at y = 0.6, one sixth of the way from 5).
  const std::vector<glm::vec3> x = {{0, 0, 0},        {1, 0, 0},          {0, 1, 0},
                                    {0.25f, 0.1f, -0.5f}, {0.25f, 0.1f, 0.5f}, {0.25f, 0.7f, 0.1f}};
  CrossingSegment seg;
  REQUIRE(crossing_segment(x.data(), {0, 1, 2}, {3, 4, 5}, seg));
  const int low = seg.end[0].point.y < seg.end[1].point.y ? 0 : 1, high = 1 - low;
  CHECK(seg.end[low].point.x == doctest::Approx(0.25f));
  CHECK(seg.end[low].point.y == doctest::Approx(0.1f));
  CHECK(seg.end[low].point.z == doctest::Approx(0.f));
  CHECK(seg.end[high].point.y == doctest::Approx(0.6f));
  CHECK(seg.end[high].point.z == doctest::Approx(0.f).epsilon(1e-6));
  // Both ends are B's edges crossing A: the edges and parameters, then A's barycentric weights.
  CHECK(std::min(seg.end[low].edge[0], seg.end[low].edge[1]) == 3);
  CHECK(std::max(seg.end[low].edge[0], seg.end[low].edge[1]) == 4);
  CHECK(std::min(seg.end[high].edge[0], seg.end[high].edge[1]) == 3);
  CHECK(std::max(seg.end[high].edge[0], seg.end[high].edge[1]) == 5);
  CHECK(seg.end[low].triangle[0] == 0);
  CHECK(seg.end[low].bary.y == doctest::Approx(0.25f));  // weight of (1, 0, 0)
  CHECK(seg.end[low].bary.z == doctest::Approx(0.1f));   // weight of (0, 1, 0)
  for (int k = 0; k < 2; ++k) {
    const glm::vec3 on_edge = (1.f - seg.end[k].s) * x[seg.end[k].edge[0]] + seg.end[k].s * x[seg.end[k].edge[1]];
    CHECK(glm::length(on_edge - seg.end[k].point) < 1e-6f);
  }
  // Apart (B lifted off A's plane) and touching at a corner: no segment.
  std::vector<glm::vec3> apart = x;
  for (int i = 3; i < 6; ++i) apart[i].z += 1.f;
  CHECK_FALSE(crossing_segment(apart.data(), {0, 1, 2}, {3, 4, 5}, seg));
}

namespace {
// A flat 4 x 4-cell sheet A in z = 0 and a sheet B 3 mm above it, shifted by (0.3, 0.55) of a cell so
// that no vertex lies on an edge, with B's middle vertex pushed 3 mm below A: a tongue of B through A,
// whose crossing contour is a small closed loop.
struct Tongue {
  ClothModel model;
  std::vector<glm::vec3> x;
  uint32_t tip = 0;
  size_t per = 0;
  Tongue() {
    Mesh m = make_grid({.width = 0.1f, .height = 0.1f, .columns = 4, .rows = 4});
    per = m.positions.size();
    const Mesh b = m;
    for (auto p : b.positions) m.positions.push_back(p + glm::vec3(0.0075f, 0.01375f, 0.003f));
    m.material.insert(m.material.end(), b.material.begin(), b.material.end());
    for (auto t : b.triangles) m.triangles.push_back({t[0] + uint32_t(per), t[1] + uint32_t(per), t[2] + uint32_t(per)});
    model = build_cloth_model(m, Material{});
    x = m.positions;
    tip = uint32_t(per + 12);  // B's middle vertex (row 2, column 2)
    x[tip].z = -0.003f;
  }
  // Every crossing triangle pair (a full scan; the runtime keeps its own list).
  std::vector<TrianglePair> crossing() const {
    std::vector<TrianglePair> pairs;
    CrossingSegment seg;
    for (uint32_t a = 0; a < model.triangle_count(); ++a)
      for (uint32_t b = a + 1; b < model.triangle_count(); ++b)
        if (crossing_segment(x.data(), model.triangle[a], model.triangle[b], seg)) pairs.push_back({a, b});
    return pairs;
  }
  uint64_t crossings() const { return count_self_intersections(model, x).triangle_pairs; }
};
}  // namespace

TEST_CASE("contour untangling: a tongue through a sheet is drawn back until the contour vanishes") {
  Tongue t;
  REQUIRE(t.crossings() > 0);
  std::vector<float> inv_mass(t.model.vertex_count(), 1.f);
  UntangleScratch scratch;
  scratch.resize(t.model.vertex_count());
  const float step = 0.0005f;
  const float tip_start = t.x[t.tip].z;
  int ticks = 0;
  for (; ticks < 40 && t.crossings() > 0; ++ticks) {
    const std::vector<glm::vec3> before = t.x;
    const UntangleStats stats = contour_untangle(t.model, t.crossing(), t.x.data(), inv_mass.data(), step, scratch);
    CHECK(stats.segments > 0);
    CHECK(stats.largest_move <= step * 1.0001f);
    for (size_t i = 0; i < t.x.size(); ++i) CHECK(glm::length(t.x[i] - before[i]) <= step * 1.0001f);
  }
  CHECK(t.crossings() == 0);
  CHECK(ticks < 40);
  CHECK(t.x[t.tip].z > tip_start);  // the tongue went back up through A
  // A was pushed the other way where the tongue went through it (the relative motion is shared).
  float lowest_a = 0.f;
  for (size_t i = 0; i < t.per; ++i) lowest_a = std::min(lowest_a, t.x[i].z);
  CHECK(lowest_a < 0.f);
  // The scratch is left clean for the next call: with nothing crossing, nothing moves.
  const std::vector<glm::vec3> settled = t.x;
  const UntangleStats none = contour_untangle(t.model, t.crossing(), t.x.data(), inv_mass.data(), step, scratch);
  CHECK(none.vertices == 0);
  CHECK(t.x == settled);
}

TEST_CASE("contour untangling: a side that must not move stays put and the other side takes the motion") {
  Tongue t;
  std::vector<float> inv_mass(t.model.vertex_count(), 1.f);
  std::fill(inv_mass.begin(), inv_mass.begin() + long(t.per), 0.f);  // A kinematic (or lying on a collider)
  const std::vector<glm::vec3> start = t.x;
  std::vector<glm::vec3> also = t.x;
  UntangleScratch scratch;
  scratch.resize(t.model.vertex_count());
  for (int tick = 0; tick < 40 && t.crossings() > 0; ++tick)
    contour_untangle(t.model, t.crossing(), t.x.data(), inv_mass.data(), 0.0005f, scratch, also.data());
  CHECK(t.crossings() == 0);
  for (size_t i = 0; i < t.per; ++i) CHECK(t.x[i] == start[i]);
  CHECK(t.x[t.tip].z > 0.f);  // all the way back above A
  CHECK(also == t.x);         // the start-of-step copy moved by the same amounts
}

TEST_CASE("contour untangling: a straight contour across two whole sheets is not pushed") {
  // Two sheets crossing along a full line whose ends are a crossing through each sheet's border: in the
  // middle no motion shortens the contour (each segment end's two pushes cancel), only its ends move.
  Mesh m = make_grid({.width = 0.1f, .height = 0.1f, .columns = 8, .rows = 2});
  const size_t per = m.positions.size();
  const Mesh b = m;
  for (auto p : b.positions)  // B: the same sheet turned about x, through A along y = 0.05 + 0.003
    m.positions.push_back(glm::vec3(p.x + 0.0031f, 0.053f, p.y - 0.0497f));
  m.material.insert(m.material.end(), b.material.begin(), b.material.end());
  for (auto t : b.triangles) m.triangles.push_back({t[0] + uint32_t(per), t[1] + uint32_t(per), t[2] + uint32_t(per)});
  const ClothModel model = build_cloth_model(m, Material{});
  std::vector<glm::vec3> x = m.positions;
  std::vector<TrianglePair> pairs;
  CrossingSegment seg;
  for (uint32_t a = 0; a < model.triangle_count(); ++a)
    for (uint32_t c = a + 1; c < model.triangle_count(); ++c)
      if (crossing_segment(x.data(), model.triangle[a], model.triangle[c], seg)) pairs.push_back({a, c});
  REQUIRE(pairs.size() > 8);
  std::vector<float> inv_mass(model.vertex_count(), 1.f);
  UntangleScratch scratch;
  scratch.resize(model.vertex_count());
  const std::vector<glm::vec3> start = x;
  contour_untangle(model, pairs, x.data(), inv_mass.data(), 0.001f, scratch);
  // Only vertices within a cell of the contour's two ends (x near 0 or 0.1) moved noticeably.
  for (size_t i = 0; i < x.size(); ++i) {
    const float from_end = std::min(start[i].x, 0.1031f - start[i].x);
    if (from_end > 0.03f) CHECK(glm::length(x[i] - start[i]) < 1e-5f);
  }
}
