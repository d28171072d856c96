#include "sim/aggregation_hierarchy.h"

#include <algorithm>

namespace weft {

NodeAdjacency node_adjacency(uint32_t node_count, const std::vector<std::array<uint32_t, 2>>& links) {
  NodeAdjacency a;
  a.offset.assign(size_t(node_count) + 1, 0);
  for (const auto& l : links) {
    ++a.offset[l[0] + 1];
    ++a.offset[l[1] + 1];
  }
  for (uint32_t i = 0; i < node_count; ++i) a.offset[i + 1] += a.offset[i];
  a.other.resize(2 * links.size());
  a.link.resize(2 * links.size());
  std::vector<uint32_t> at(a.offset.begin(), a.offset.end() - 1);
  for (uint32_t e = 0; e < links.size(); ++e) {
    const uint32_t i = links[e][0], j = links[e][1];
    a.other[at[i]] = j;
    a.link[at[i]++] = e;
    a.other[at[j]] = i;
    a.link[at[j]++] = e;
  }
  a.upper.resize(node_count);
  std::vector<std::pair<uint32_t, uint32_t>> row;
  for (uint32_t i = 0; i < node_count; ++i) {
    row.clear();
    for (uint32_t k = a.offset[i]; k < a.offset[i + 1]; ++k) row.push_back({a.other[k], a.link[k]});
    std::sort(row.begin(), row.end());
    a.upper[i] = a.offset[i];
    for (uint32_t k = 0; k < row.size(); ++k) {
      a.other[a.offset[i] + k] = row[k].first;
      a.link[a.offset[i] + k] = row[k].second;
      if (row[k].first < i) a.upper[i] = a.offset[i] + k + 1;
    }
  }
  return a;
}

namespace {

constexpr uint32_t kNone = UINT32_MAX;

AggregationLevel coarsen(uint32_t n, const std::vector<std::array<uint32_t, 2>>& links, size_t aggregation_links) {
  const std::vector<std::array<uint32_t, 2>> graph_links(links.begin(), links.begin() + long(aggregation_links));
  const NodeAdjacency adj = node_adjacency(n, graph_links);
  AggregationLevel level;
  level.fine_count = n;
  level.aggregate.assign(n, kNone);
  uint32_t count = 0;
  // 1. a node whose neighbours are all free roots an aggregate of itself and them
  for (uint32_t i = 0; i < n; ++i) {
    if (level.aggregate[i] != kNone) continue;
    bool free = true;
    for (uint32_t k = adj.offset[i]; k < adj.offset[i + 1] && free; ++k) free = level.aggregate[adj.other[k]] == kNone;
    if (!free) continue;
    level.aggregate[i] = count;
    for (uint32_t k = adj.offset[i]; k < adj.offset[i + 1]; ++k) level.aggregate[adj.other[k]] = count;
    ++count;
  }
  // 2. the rest join the aggregate most of their neighbours are in (ties: the first); isolated nodes stand alone
  std::vector<uint32_t> pass = level.aggregate;
  for (uint32_t i = 0; i < n; ++i) {
    if (pass[i] != kNone) continue;
    uint32_t best = kNone, best_votes = 0;
    for (uint32_t k = adj.offset[i]; k < adj.offset[i + 1]; ++k) {
      const uint32_t a = pass[adj.other[k]];
      if (a == kNone) continue;
      uint32_t votes = 0;
      for (uint32_t q = adj.offset[i]; q < adj.offset[i + 1]; ++q) votes += pass[adj.other[q]] == a;
      if (votes > best_votes) best = a, best_votes = votes;
    }
    level.aggregate[i] = best != kNone ? best : count++;
  }
  level.coarse_count = count;
  // coarse links: the distinct aggregate pairs of all fine links, numbered as first met. Each found again
  // through a list per lower aggregate (a dozen at most): a hash map keyed by the pair was a quarter of
  // the hierarchy's build.
  std::vector<uint32_t> first(count, kNone), next;
  level.link_map.resize(links.size());
  for (size_t e = 0; e < links.size(); ++e) {
    uint32_t a = level.aggregate[links[e][0]], b = level.aggregate[links[e][1]];
    if (a == b) {
      level.link_map[e] = -1;
      continue;
    }
    if (a > b) std::swap(a, b);
    uint32_t c = first[a];
    while (c != kNone && level.coarse_link[c][1] != b) c = next[c];
    if (c == kNone) {
      c = uint32_t(level.coarse_link.size());
      level.coarse_link.push_back({a, b});
      next.push_back(first[a]);
      first[a] = c;
    }
    level.link_map[e] = int32_t(c);
  }
  return level;
}

}  // namespace

AggregationHierarchy build_aggregation_hierarchy(uint32_t node_count, const std::vector<std::array<uint32_t, 2>>& links,
                                                 size_t aggregation_links, uint32_t coarsest) {
  AggregationHierarchy h;
  uint32_t n = node_count;
  std::vector<std::array<uint32_t, 2>> current = links;
  size_t graph_links = std::min(aggregation_links, links.size());
  while (n > coarsest) {
    AggregationLevel level = coarsen(n, current, graph_links);
    if (level.coarse_count >= n) break;  // nothing merged (no links): stop
    n = level.coarse_count;
    current = level.coarse_link;
    graph_links = current.size();
    h.levels.push_back(std::move(level));
  }
  return h;
}

}  // namespace weft
