#include "sim/contour_untangle.h"

#include <algorithm>
#include <cmath>

#include "sim/collision_geometry.h"

namespace weft {
namespace {

// Where edge (i0, i1) crosses triangle tri (the exact predicate decides; the point is then the edge's
// crossing of the plane, with its barycentric weights clamped into the triangle against rounding).
bool edge_crossing(const glm::vec3* x, uint32_t i0, uint32_t i1, const std::array<uint32_t, 3>& tri,
                   EdgeCrossing& out) {
  const glm::vec3 &p = x[i0], &q = x[i1], &a = x[tri[0]], &b = x[tri[1]], &c = x[tri[2]];
  if (!segment_crosses_triangle(p, q, a, b, c)) return false;
  const glm::vec3 n = glm::cross(b - a, c - a);
  const float dp = glm::dot(p - a, n), dq = glm::dot(q - a, n);
  if (dp == dq) return false;
  out.s = std::clamp(dp / (dp - dq), 0.f, 1.f);
  out.point = p + out.s * (q - p);
  out.edge[0] = i0;
  out.edge[1] = i1;
  std::copy(tri.begin(), tri.end(), out.triangle);
  out.bary = closest_point_on_triangle(out.point, a, b, c);
  return true;
}

}  // namespace

bool crossing_segment(const glm::vec3* x, const std::array<uint32_t, 3>& a, const std::array<uint32_t, 3>& b,
                      CrossingSegment& segment) {
  EdgeCrossing found[6];
  int count = 0;
  for (int side = 0; side < 2; ++side) {
    const auto& edges = side == 0 ? a : b;
    const auto& other = side == 0 ? b : a;
    for (int k = 0; k < 3; ++k)
      if (edge_crossing(x, edges[k], edges[(k + 1) % 3], other, found[count])) ++count;
  }
  if (count < 2) return false;
  // Generic crossings have exactly two ends; past rounding ties, keep the two farthest apart.
  int best_i = 0, best_j = 1;
  float best = -1.f;
  for (int i = 0; i < count; ++i)
    for (int j = i + 1; j < count; ++j) {
      const float d = glm::dot(found[i].point - found[j].point, found[i].point - found[j].point);
      if (d > best) best = d, best_i = i, best_j = j;
    }
  if (best < 1e-14f) return false;
  segment.end[0] = found[best_i];
  segment.end[1] = found[best_j];
  return true;
}

UntangleStats contour_untangle(const ClothModel& model, const std::vector<TrianglePair>& pairs, glm::vec3* x,
                               const float* inv_mass, float step, UntangleScratch& scratch, glm::vec3* also) {
  UntangleStats stats;
  scratch.list.clear();
  auto add = [&](uint32_t v, const glm::vec3& push) {
    if (!scratch.touched[v]) {
      scratch.touched[v] = 1;
      scratch.push[v] = glm::vec3(0.f);
      scratch.list.push_back(v);
    }
    scratch.push[v] += push;
  };
  CrossingSegment seg;
  for (const TrianglePair& p : pairs) {
    if (!crossing_segment(x, model.triangle[p.a], model.triangle[p.b], seg)) continue;
    bool pushed = false;
    for (int k = 0; k < 2; ++k) {
      const EdgeCrossing& end = seg.end[k];
      const glm::vec3 g = glm::normalize(end.point - seg.end[1 - k].point);  // d length / d end
      const glm::vec3 e = x[end.edge[1]] - x[end.edge[0]];
      const float e2 = glm::dot(e, e);
      if (!(e2 > 0.f)) continue;
      const glm::vec3 d = -(g - (glm::dot(g, e) / e2) * e);  // the edge's surface, relative to the triangle's
      // Shared like a contact correction: r = sum w_k x_k (edge +, triangle -) moves by d.
      const uint32_t vert[5] = {end.edge[0], end.edge[1], end.triangle[0], end.triangle[1], end.triangle[2]};
      const float w[5] = {1.f - end.s, end.s, -end.bary.x, -end.bary.y, -end.bary.z};
      float sum = 0.f;
      for (int j = 0; j < 5; ++j) sum += w[j] * w[j] * inv_mass[vert[j]];
      if (!(sum > 0.f)) continue;
      for (int j = 0; j < 5; ++j)
        if (inv_mass[vert[j]] > 0.f && w[j] != 0.f) add(vert[j], (w[j] * inv_mass[vert[j]] / sum) * d);
      pushed = true;
    }
    stats.segments += pushed ? 1 : 0;
  }
  for (uint32_t v : scratch.list) {
    const glm::vec3 push = scratch.push[v];
    const float length = glm::length(push);
    scratch.touched[v] = 0;
    if (!(length > 1e-6f) || !std::isfinite(length)) continue;
    const float move = step * std::min(length, 1.f);
    const glm::vec3 d = (move / length) * push;
    x[v] += d;
    if (also) also[v] += d;
    stats.largest_move = std::max(stats.largest_move, move);
    ++stats.vertices;
  }
  return stats;
}

}  // namespace weft
