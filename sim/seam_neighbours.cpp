#include "sim/seam_neighbours.h"

#include <algorithm>
#include <utility>

namespace weft {

void SeamNeighbours::clear() {
  start_.clear();
  list_.clear();
  seam_triangle_.clear();
}

void SeamNeighbours::build(const Topology& topology, size_t nvert, size_t ntri,
                           const std::vector<std::array<uint32_t, 3>>& triangle, const SeamSet& seams) {
  clear();
  if (seams.size() == 0) return;
  // mesh one-rings
  std::vector<std::vector<uint32_t>> ring(nvert);
  for (const auto& e : topology.edges) {
    if (e[0] >= nvert || e[1] >= nvert) continue;
    ring[e[0]].push_back(e[1]);
    ring[e[1]].push_back(e[0]);
  }
  std::vector<std::pair<uint32_t, uint32_t>> joins;
  auto join = [&](uint32_t p, uint32_t q) {
    if (p >= nvert || q >= nvert || p == q) return;
    joins.emplace_back(p, q);
    joins.emplace_back(q, p);
    for (uint32_t n : ring[p]) if (n != q) joins.emplace_back(n, q), joins.emplace_back(q, n);
    for (uint32_t n : ring[q]) if (n != p) joins.emplace_back(p, n), joins.emplace_back(n, p);
  };
  for (size_t k = 0; k < seams.size(); ++k) {
    join(seams.a[k], seams.b[k]);
    if (seams.c[k] != seams.b[k]) join(seams.a[k], seams.c[k]);
  }
  std::sort(joins.begin(), joins.end());
  joins.erase(std::unique(joins.begin(), joins.end()), joins.end());
  start_.assign(nvert + 1, 0);
  for (const auto& [p, q] : joins) ++start_[p + 1];
  for (size_t i = 0; i < nvert; ++i) start_[i + 1] += start_[i];
  list_.reserve(joins.size());
  for (const auto& [p, q] : joins) list_.push_back(q);  // sorted by p, so in CSR order
  seam_triangle_.assign(ntri, 0);
  for (size_t t = 0; t < ntri && t < triangle.size(); ++t)
    for (uint32_t v : triangle[t])
      if (v < nvert && start_[v + 1] > start_[v]) seam_triangle_[t] = 1;
}

}  // namespace weft
