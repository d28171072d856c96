#include "sim/cut_twins.h"

#include <algorithm>
#include <tuple>

namespace weft {

void CutTwins::clear() {
  pair_.clear();
  alive_.clear();
  live_ = 0;
  start_.clear();
  list_.clear();
  via_.clear();
  twin_triangle_.clear();
}

void CutTwins::build(const Topology& topology, size_t nvert, size_t ntri,
                     const std::vector<std::array<uint32_t, 3>>& triangle,
                     const std::vector<std::array<uint32_t, 2>>& twins) {
  clear();
  for (const auto& [p, q] : twins)
    if (p < nvert && q < nvert && p != q) pair_.push_back({std::min(p, q), std::max(p, q)});
  std::sort(pair_.begin(), pair_.end());
  pair_.erase(std::unique(pair_.begin(), pair_.end()), pair_.end());
  if (pair_.empty()) return;
  alive_.assign(pair_.size(), 1);
  live_ = pair_.size();
  std::vector<std::vector<uint32_t>> ring(nvert);
  for (const auto& e : topology.edges) {
    if (e[0] >= nvert || e[1] >= nvert) continue;
    ring[e[0]].push_back(e[1]);
    ring[e[1]].push_back(e[0]);
  }
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> joins;  // (vertex, joined vertex, pair)
  for (uint32_t k = 0; k < pair_.size(); ++k) {
    const auto [p, q] = pair_[k];
    joins.emplace_back(p, q, k);
    joins.emplace_back(q, p, k);
    for (uint32_t n : ring[p]) if (n != q) joins.emplace_back(n, q, k), joins.emplace_back(q, n, k);
    for (uint32_t n : ring[q]) if (n != p) joins.emplace_back(p, n, k), joins.emplace_back(n, p, k);
  }
  std::sort(joins.begin(), joins.end());
  start_.assign(nvert + 1, 0);
  for (const auto& j : joins) ++start_[std::get<0>(j) + 1];
  for (size_t i = 0; i < nvert; ++i) start_[i + 1] += start_[i];
  list_.reserve(joins.size());
  via_.reserve(joins.size());
  for (const auto& [p, q, k] : joins) list_.push_back(q), via_.push_back(k);  // sorted by p: CSR order
  twin_triangle_.assign(ntri, 0);
  for (size_t t = 0; t < ntri && t < triangle.size(); ++t)
    for (uint32_t v : triangle[t])
      if (v < nvert && start_[v + 1] > start_[v]) twin_triangle_[t] = 1;
}

size_t CutTwins::expire(const glm::vec3* x, float apart) {
  if (live_ == 0) return 0;
  size_t retired = 0;
  const float apart2 = apart * apart;
  for (size_t k = 0; k < pair_.size(); ++k) {
    if (!alive_[k]) continue;
    const glm::vec3 d = x[pair_[k][0]] - x[pair_[k][1]];
    if (glm::dot(d, d) > apart2) alive_[k] = 0, ++retired;
  }
  live_ -= retired;
  return retired;
}

std::vector<std::array<uint32_t, 2>> CutTwins::live() const {
  std::vector<std::array<uint32_t, 2>> out;
  for (size_t k = 0; k < pair_.size(); ++k)
    if (alive_[k]) out.push_back(pair_[k]);
  return out;
}

}  // namespace weft
