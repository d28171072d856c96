#include <doctest/doctest.h>

#include <random>

#include "sim/collision_geometry.h"

using namespace weft;

TEST_CASE("closest point on a triangle: face, edge and vertex regions") {
  const glm::vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  glm::vec3 w = closest_point_on_triangle({0.25f, 0.25f, 0.7f}, a, b, c);
  CHECK(w.x == doctest::Approx(0.5f));
  CHECK(w.y == doctest::Approx(0.25f));
  CHECK(w.z == doctest::Approx(0.25f));
  w = closest_point_on_triangle({0.5f, -1.f, 0.3f}, a, b, c);  // edge ab
  CHECK(w.z == doctest::Approx(0.f));
  CHECK(w.y == doctest::Approx(0.5f));
  w = closest_point_on_triangle({2.f, -1.f, 0.f}, a, b, c);  // vertex b
  CHECK(w.y == doctest::Approx(1.f));
}

TEST_CASE("closest point on a triangle is no farther than random points of it") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> U(-1.f, 1.f), P(0.f, 1.f);
  for (int trial = 0; trial < 200; ++trial) {
    const glm::vec3 a(U(rng), U(rng), U(rng)), b(U(rng), U(rng), U(rng)), c(U(rng), U(rng), U(rng)),
        p(2 * U(rng), 2 * U(rng), 2 * U(rng));
    const glm::vec3 w = closest_point_on_triangle(p, a, b, c);
    CHECK(w.x >= -1e-6f);
    CHECK(w.y >= -1e-6f);
    CHECK(w.z >= -1e-6f);
    CHECK(w.x + w.y + w.z == doctest::Approx(1.f));
    const float best = glm::length(p - (w.x * a + w.y * b + w.z * c));
    for (int k = 0; k < 20; ++k) {
      float u = P(rng), v = P(rng);
      if (u + v > 1) { u = 1 - u; v = 1 - v; }
      CHECK(best <= glm::length(p - (a + u * (b - a) + v * (c - a))) + 1e-5f);
    }
  }
}

TEST_CASE("closest points of two segments") {
  const SegmentParams st = closest_points_on_segments({0, 0, 0}, {2, 0, 0}, {1, -1, 1}, {1, 1, 1});
  CHECK(st.s == doctest::Approx(0.5f));
  CHECK(st.t == doctest::Approx(0.5f));
  // Parallel, overlapping: any pair at distance 1 will do.
  const SegmentParams par = closest_points_on_segments({0, 0, 0}, {1, 0, 0}, {0.5f, 1, 0}, {1.5f, 1, 0});
  const glm::vec3 p = glm::vec3(par.s, 0, 0), q = glm::vec3(0.5f + par.t, 1, 0);
  CHECK(glm::length(p - q) == doctest::Approx(1.f));
  // Clamped at the ends.
  const SegmentParams end = closest_points_on_segments({0, 0, 0}, {1, 0, 0}, {2, 1, 0}, {3, 1, 0});
  CHECK(end.s == doctest::Approx(1.f));
  CHECK(end.t == doctest::Approx(0.f));
}

TEST_CASE("segment crossing a triangle, and near misses") {
  const glm::vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  CHECK(segment_crosses_triangle({0.2f, 0.2f, -1}, {0.2f, 0.2f, 1}, a, b, c));
  CHECK_FALSE(segment_crosses_triangle({0.2f, 0.2f, 0.1f}, {0.2f, 0.2f, 1}, a, b, c));  // stops short
  CHECK_FALSE(segment_crosses_triangle({0.6f, 0.6f, -1}, {0.6f, 0.6f, 1}, a, b, c));   // passes beside
  CHECK_FALSE(segment_crosses_triangle({0.2f, 0.2f, 0}, {0.3f, 0.2f, 0}, a, b, c));    // coplanar: not counted
  CHECK(orient3d(a, b, c, {0, 0, 1}) == 1);
  CHECK(orient3d(a, b, c, {0, 0, -1}) == -1);
  CHECK(orient3d(a, b, c, {5, 5, 0}) == 0);
}

TEST_CASE("triangle-triangle intersection") {
  const glm::vec3 a0(0, 0, 0), a1(1, 0, 0), a2(0, 1, 0);
  CHECK(triangles_intersect(a0, a1, a2, {0.2f, 0.2f, -0.5f}, {0.2f, 0.2f, 0.5f}, {0.8f, -0.5f, 0.f}));
  CHECK_FALSE(triangles_intersect(a0, a1, a2, {0, 0, 0.1f}, {1, 0, 0.1f}, {0, 1, 0.1f}));  // stacked
}
