#include "sim/flat_pieces.h"

#include <algorithm>
#include <cmath>

namespace weft {
namespace {

// Area of the convex hull of 2D points (Andrew's monotone chain); sorts `p`.
double hull_area(std::vector<glm::dvec2>& p) {
  if (p.size() < 3) return 0.0;
  std::sort(p.begin(), p.end(),
            [](const glm::dvec2& a, const glm::dvec2& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  auto cross = [](const glm::dvec2& o, const glm::dvec2& a, const glm::dvec2& b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  };
  std::vector<glm::dvec2> hull(2 * p.size());
  size_t k = 0;
  for (size_t i = 0; i < p.size(); ++i) {  // lower hull
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], p[i]) <= 0) --k;
    hull[k++] = p[i];
  }
  for (size_t i = p.size() - 1, lower = k + 1; i-- > 0;) {  // upper hull
    while (k >= lower && cross(hull[k - 2], hull[k - 1], p[i]) <= 0) --k;
    hull[k++] = p[i];
  }
  double area = 0;
  for (size_t i = 0; i + 1 < k; ++i) area += hull[i].x * hull[i + 1].y - hull[i + 1].x * hull[i].y;
  return 0.5 * std::abs(area);
}

}  // namespace

FlatPieces find_flat_pieces(const ClothModel& model, const VertexAdjacency& adjacency) {
  const size_t n = model.vertex_count();
  FlatPieces out;
  out.piece.assign(n, UINT32_MAX);
  uint32_t count = 0;
  std::vector<uint32_t> stack;
  for (uint32_t s = 0; s < n; ++s) {
    if (out.piece[s] != UINT32_MAX) continue;
    out.piece[s] = count;
    stack.push_back(s);
    while (!stack.empty()) {
      const uint32_t i = stack.back();
      stack.pop_back();
      for (uint32_t k = adjacency.offset[i]; k < adjacency.offset[i + 1]; ++k) {
        const uint32_t j = adjacency.neighbour[k];
        if (out.piece[j] == UINT32_MAX) {
          out.piece[j] = count;
          stack.push_back(j);
        }
      }
    }
    ++count;
  }
  // Per piece: area-weighted normal, mean, area and bounds from its triangles.
  std::vector<glm::dvec3> normal(count, glm::dvec3(0.0)), mean(count, glm::dvec3(0.0));
  std::vector<double> area(count, 0.0), size(count, 0.0);
  std::vector<uint32_t> vertices(count, 0);
  for (const auto& tri : model.triangle) {
    const glm::dvec3 a(model.rest_position[tri[0]]), b(model.rest_position[tri[1]]), c(model.rest_position[tri[2]]);
    const glm::dvec3 nrm = 0.5 * glm::cross(b - a, c - a);
    normal[out.piece[tri[0]]] += nrm;
    area[out.piece[tri[0]]] += glm::length(nrm);
  }
  std::vector<glm::dvec3> lo(count, glm::dvec3(INFINITY)), hi(count, glm::dvec3(-INFINITY));
  for (uint32_t i = 0; i < n; ++i) {
    const glm::dvec3 p(model.rest_position[i]);
    mean[out.piece[i]] += p;
    ++vertices[out.piece[i]];
    lo[out.piece[i]] = glm::min(lo[out.piece[i]], p);
    hi[out.piece[i]] = glm::max(hi[out.piece[i]], p);
  }
  out.flat_convex.assign(count, 0);
  std::vector<std::vector<glm::dvec2>> projected(count);
  std::vector<glm::dvec3> u(count), w(count);
  for (uint32_t q = 0; q < count; ++q) {
    mean[q] /= double(std::max(vertices[q], 1u));
    size[q] = glm::length(hi[q] - lo[q]);
    const double len = glm::length(normal[q]);
    // a piece with no area (a lone vertex, a strand of edges) is not a surface
    if (!(len > 0.0) || !(area[q] > 0.0) || len < 0.999 * area[q]) continue;  // folded rest shapes cancel normals
    normal[q] /= len;
    u[q] = glm::normalize(std::abs(normal[q].x) < 0.9 ? glm::cross(normal[q], glm::dvec3(1, 0, 0))
                                                      : glm::cross(normal[q], glm::dvec3(0, 1, 0)));
    w[q] = glm::cross(normal[q], u[q]);
    out.flat_convex[q] = 1;  // until a vertex leaves the plane
  }
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t q = out.piece[i];
    if (!out.flat_convex[q]) continue;
    const glm::dvec3 d = glm::dvec3(model.rest_position[i]) - mean[q];
    if (std::abs(glm::dot(d, normal[q])) > 1e-5 * size[q]) {
      out.flat_convex[q] = 0;
      continue;
    }
    projected[q].push_back({glm::dot(d, u[q]), glm::dot(d, w[q])});
  }
  for (uint32_t q = 0; q < count; ++q)
    if (out.flat_convex[q] && hull_area(projected[q]) > area[q] * (1.0 + 1e-4)) out.flat_convex[q] = 0;
  return out;
}

}  // namespace weft
