#include "sim/rest_gap.h"

#include <algorithm>

#include <cmath>
#include <limits>

#include "sim/collision_geometry.h"

namespace weft {

bool near_at_rest(const glm::vec3* rest, const std::array<uint32_t, 3>& a, const std::array<uint32_t, 3>& b,
                  float thickness) {
  const glm::vec3 lo_a = glm::min(glm::min(rest[a[0]], rest[a[1]]), rest[a[2]]);
  const glm::vec3 hi_a = glm::max(glm::max(rest[a[0]], rest[a[1]]), rest[a[2]]);
  const glm::vec3 lo_b = glm::min(glm::min(rest[b[0]], rest[b[1]]), rest[b[2]]);
  const glm::vec3 hi_b = glm::max(glm::max(rest[b[0]], rest[b[1]]), rest[b[2]]);
  return !(glm::any(glm::greaterThanEqual(lo_b - hi_a, glm::vec3(thickness))) ||
           glm::any(glm::greaterThanEqual(lo_a - hi_b, glm::vec3(thickness))));
}

float rest_gap_vertex_triangle(const glm::vec3* rest, uint32_t v, const std::array<uint32_t, 3>& tri) {
  const glm::vec3 &a = rest[tri[0]], &b = rest[tri[1]], &c = rest[tri[2]];
  const glm::vec3 w = closest_point_on_triangle(rest[v], a, b, c);
  return glm::length(rest[v] - (w.x * a + w.y * b + w.z * c));
}

float rest_gap_edge_edge(const glm::vec3* rest, uint32_t i0, uint32_t i1, uint32_t j0, uint32_t j1) {
  const SegmentParams st = closest_points_on_segments(rest[i0], rest[i1], rest[j0], rest[j1]);
  return glm::length((rest[i0] + st.s * (rest[i1] - rest[i0])) - (rest[j0] + st.t * (rest[j1] - rest[j0])));
}

float rest_gap_triangles(const glm::vec3* rest, const std::array<uint32_t, 3>& a, const std::array<uint32_t, 3>& b) {
  auto in = [](const std::array<uint32_t, 3>& t, uint32_t v) { return t[0] == v || t[1] == v || t[2] == v; };
  float gap = std::numeric_limits<float>::infinity();
  for (int k = 0; k < 3; ++k) {
    if (!in(b, a[k])) gap = std::min(gap, rest_gap_vertex_triangle(rest, a[k], b));
    if (!in(a, b[k])) gap = std::min(gap, rest_gap_vertex_triangle(rest, b[k], a));
  }
  for (int ka = 0; ka < 3; ++ka)
    for (int kb = 0; kb < 3; ++kb) {
      const uint32_t i0 = a[(ka + 1) % 3], i1 = a[(ka + 2) % 3], j0 = b[(kb + 1) % 3], j1 = b[(kb + 2) % 3];
      if (i0 == j0 || i0 == j1 || i1 == j0 || i1 == j1) continue;
      gap = std::min(gap, rest_gap_edge_edge(rest, i0, i1, j0, j1));
    }
  return gap;
}

}  // namespace weft
