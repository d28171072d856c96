#include "sim/overlap_opening.h"

#include <algorithm>
#include <cmath>

namespace weft {

float overlap_gap(const ClothModel& model, const glm::vec3* x, const OverlapPair& o) {
  const auto& ta = model.triangle[o.pair.a];
  const auto& tb = model.triangle[o.pair.b];
  const glm::vec3 n = glm::cross(x[ta[1]] - x[ta[0]], x[ta[2]] - x[ta[0]]);
  const float len = glm::length(n);
  if (!(len > 0.f)) return 0.f;
  const glm::vec3 d = (x[ta[0]] + x[ta[1]] + x[ta[2]] - x[tb[0]] - x[tb[1]] - x[tb[2]]) / 3.f;
  return o.side * glm::dot(d, n) / len;
}

OverlapOpening open_overlaps(const ClothModel& model, std::vector<glm::vec3>& x, const std::vector<OverlapPair>& pairs,
                             float gap, float step, size_t max_iterations) {
  OverlapOpening out;
  const size_t n = model.vertex_count();
  std::vector<glm::vec3> push(n);
  std::vector<uint8_t> moved(n, 0);
  for (; out.iterations < max_iterations; ++out.iterations) {
    std::fill(push.begin(), push.end(), glm::vec3(0.f));
    size_t open = 0;
    for (const OverlapPair& o : pairs) {
      if (overlap_gap(model, x.data(), o) >= gap) continue;
      const auto& ta = model.triangle[o.pair.a];
      const auto& tb = model.triangle[o.pair.b];
      const glm::vec3 nrm = glm::cross(x[ta[1]] - x[ta[0]], x[ta[2]] - x[ta[0]]);
      const float len = glm::length(nrm);
      if (!(len > 0.f)) continue;
      ++open;
      // Shared as the per-tick separation shares it (SelfCollision::separate_overlaps), equal masses: the
      // centroids part by the whole motion, split among the vertices free to move.
      const glm::vec3 dir = (o.side / len) * nrm;
      const uint32_t vert[6] = {ta[0], ta[1], ta[2], tb[0], tb[1], tb[2]};
      float sum = 0.f;
      for (uint32_t v : vert) sum += model.pinned[v] ? 0.f : 1.f / 9.f;
      if (!(sum > 0.f)) continue;
      for (int j = 0; j < 6; ++j)
        if (!model.pinned[vert[j]]) push[vert[j]] += ((j < 3 ? 1.f : -1.f) / (3.f * sum)) * dir;
    }
    if (open == 0) break;
    for (size_t v = 0; v < n; ++v) {
      const float length = glm::length(push[v]);
      if (!(length > 1e-6f) || !std::isfinite(length)) continue;
      x[v] += (step * std::min(length, 1.f) / length) * push[v];
      moved[v] = 1;
    }
  }
  out.moved = size_t(std::count(moved.begin(), moved.end(), uint8_t(1)));
  for (const OverlapPair& o : pairs) out.left += overlap_gap(model, x.data(), o) < gap ? 1 : 0;
  return out;
}

}  // namespace weft
