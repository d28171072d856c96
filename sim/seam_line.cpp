#include "sim/seam_line.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

namespace weft {
namespace {

constexpr uint32_t kNone = UINT32_MAX;

// Cumulative arc length along the run (same length as the run), m.
std::vector<float> arc_lengths(const std::vector<uint32_t>& run, const glm::vec3* rest) {
  std::vector<float> s(run.size(), 0.f);
  for (size_t k = 1; k < run.size(); ++k) s[k] = s[k - 1] + glm::length(rest[run[k]] - rest[run[k - 1]]);
  return s;
}

// The point of `run` at arc length t: the segment k..k+1 and the weight of k+1 (snapped to a vertex within
// `snap` of the length).
void point_at(const std::vector<uint32_t>& run, const std::vector<float>& s, float t, float snap, uint32_t& b,
              uint32_t& c, float& w) {
  size_t k = size_t(std::upper_bound(s.begin(), s.end(), t) - s.begin());
  k = k == 0 ? 0 : k - 1;
  if (k + 1 >= run.size()) {
    b = c = run.back();
    w = 0.f;
    return;
  }
  const float len = s[k + 1] - s[k];
  w = len > 0.f ? std::clamp((t - s[k]) / len, 0.f, 1.f) : 0.f;
  b = run[k];
  c = run[k + 1];
  if (w * len <= snap) { c = b; w = 0.f; }
  else if ((1.f - w) * len <= snap) { b = c; w = 0.f; }
}

}  // namespace

std::vector<uint32_t> chain_edges(const std::vector<std::array<uint32_t, 2>>& edges, const char** refused) {
  auto refuse = [&](const char* why) {
    if (refused) *refused = why;
    return std::vector<uint32_t>{};
  };
  if (edges.empty()) return refuse("a run needs at least one edge");
  std::unordered_map<uint32_t, std::array<uint32_t, 2>> next;  // each vertex's (at most two) neighbours
  std::vector<uint32_t> order;                                  // vertices as first met
  for (const auto& e : edges) {
    if (e[0] == e[1]) return refuse("an edge of the run joins a vertex to itself");
    for (int k = 0; k < 2; ++k) {
      auto [it, fresh] = next.try_emplace(e[k], std::array<uint32_t, 2>{kNone, kNone});
      if (fresh) order.push_back(e[k]);
      auto& nb = it->second;
      const uint32_t other = e[1 - k];
      if (nb[0] == other || nb[1] == other) return refuse("an edge of the run is listed twice");
      if (nb[0] == kNone) nb[0] = other;
      else if (nb[1] == kNone) nb[1] = other;
      else return refuse("the run's edges branch at a vertex");
    }
  }
  uint32_t start = kNone;
  for (uint32_t v : order)
    if (next[v][1] == kNone) { start = v; break; }
  if (start == kNone) return refuse("the run's edges close a loop");
  std::vector<uint32_t> run{start};
  for (uint32_t prev = kNone, at = start;;) {
    const auto& nb = next[at];
    const uint32_t to = nb[0] != prev ? nb[0] : nb[1];
    if (to == kNone) break;
    run.push_back(to);
    prev = at;
    at = to;
  }
  if (run.size() != order.size()) return refuse("the run's edges fall in pieces");
  return run;
}

uint32_t nearest_border_vertex(const Topology& topology, const glm::vec3* x, size_t nvert, const glm::vec3& p,
                               const uint8_t* allowed) {
  uint32_t best = kNone;
  float best_d = INFINITY;
  for (uint32_t i = 0; i < nvert; ++i) {
    if (!topology.boundary_vertex[i] || (allowed && !allowed[i])) continue;
    const float d = glm::length(x[i] - p);
    if (d < best_d) { best_d = d; best = i; }
  }
  return best;
}

std::vector<uint32_t> border_run(const Topology& topology, const glm::vec3* rest, uint32_t from, uint32_t to,
                                 const char** refused) {
  const size_t nvert = topology.boundary_vertex.size();
  auto refuse = [&](const char* why) {
    if (refused) *refused = why;
    return std::vector<uint32_t>{};
  };
  if (from >= nvert || to >= nvert || !topology.boundary_vertex[from] || !topology.boundary_vertex[to])
    return refuse("a run's end is not on a border");
  if (from == to) return refuse("a run's two ends meet at one border vertex");
  // each border vertex's neighbours along the border (two on a manifold border)
  std::vector<std::array<uint32_t, 2>> next(nvert, {kNone, kNone});
  for (size_t e = 0; e < topology.edges.size(); ++e) {
    if (!topology.boundary_edge[e]) continue;
    const auto [u, v] = topology.edges[e];
    (next[u][0] == kNone ? next[u][0] : next[u][1]) = v;
    (next[v][0] == kNone ? next[v][0] : next[v][1]) = u;
  }
  std::vector<uint32_t> best;
  float best_len = INFINITY;
  for (int way = 0; way < 2; ++way) {
    std::vector<uint32_t> path{from};
    uint32_t prev = from, at = next[from][way];
    float len = 0.f;
    while (at != kNone && at != from && path.size() <= nvert) {
      len += glm::length(rest[at] - rest[prev]);
      path.push_back(at);
      if (at == to) break;
      const uint32_t n = next[at][0] == prev ? next[at][1] : next[at][0];
      prev = at;
      at = n;
    }
    if (path.back() == to && len < best_len) { best = std::move(path); best_len = len; }
  }
  if (best.empty()) return refuse("a run's two ends lie on different borders");
  return best;
}

float run_length(const std::vector<uint32_t>& run, const glm::vec3* rest) {
  float len = 0.f;
  for (size_t k = 1; k < run.size(); ++k) len += glm::length(rest[run[k]] - rest[run[k - 1]]);
  return len;
}

float clip_run(std::vector<uint32_t>& run, const glm::vec3* rest, float length) {
  if (run.size() < 3) return 0.f;
  const std::vector<float> s = arc_lengths(run, rest);
  if (!(s.back() > length)) return 0.f;
  size_t keep = 2;  // vertices kept: the one nearest `length`, at least two
  for (size_t k = 1; k < run.size(); ++k)
    if (std::abs(s[k] - length) < std::abs(s[keep - 1] - length)) keep = k + 1;
  keep = std::max<size_t>(keep, 2);
  const float cut = s.back() - s[keep - 1];
  run.resize(keep);
  return cut;
}

size_t pair_runs_at_rest(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, const glm::vec3* rest,
                         float tolerance, SeamSet& out) {
  if (a.size() < 2 || b.size() < 2) return 0;
  // The nearest point of run r's rest polyline to p: segment (u, v), weight of v, distance.
  auto nearest = [&](const std::vector<uint32_t>& r, const glm::vec3& p, uint32_t& u, uint32_t& v, float& w) {
    float best = INFINITY;
    for (size_t k = 0; k + 1 < r.size(); ++k) {
      const glm::vec3 s0 = rest[r[k]], d = rest[r[k + 1]] - s0;
      const float dd = glm::dot(d, d);
      const float t = dd > 0.f ? std::clamp(glm::dot(p - s0, d) / dd, 0.f, 1.f) : 0.f;
      const float dist = glm::length(p - (s0 + t * d));
      if (dist < best) { best = dist; u = r[k]; v = r[k + 1]; w = t; }
    }
    if (w <= 1e-3f) { v = u; w = 0.f; }
    else if (w >= 1.f - 1e-3f) { u = v; w = 0.f; }
    return best;
  };
  const std::vector<uint32_t>& shorter = a.size() <= b.size() ? a : b;
  const std::vector<uint32_t>& longer = a.size() <= b.size() ? b : a;
  size_t found = 0;
  for (uint32_t i : shorter) {
    uint32_t u = 0, v = 0;
    float w = 0.f;
    found += nearest(longer, rest[i], u, v, w) <= tolerance;
  }
  // not one line at rest (a cut's lips: 79 of 83 on the other's line, the rest at a notch of one lip only)
  if (10 * found < 9 * shorter.size()) return 0;
  const size_t before = out.size();
  for (const auto* run : {&a, &b}) {
    const std::vector<uint32_t>& other = run == &a ? b : a;
    for (uint32_t i : *run) {
      uint32_t u = 0, v = 0;
      float w = 0.f;
      if (nearest(other, rest[i], u, v, w) > tolerance || i == u || i == v) continue;
      // one pair per coincident couple: b's vertex met by a's exactly is left out
      if (run == &b && w == 0.f && std::find(a.begin(), a.end(), u) != a.end()) {
        bool met = false;
        for (size_t k = before; k < out.size() && !met; ++k) met = out.a[k] == u && out.b[k] == i && out.c[k] == i;
        if (met) continue;
      }
      out.add(i, u, v, w);
    }
  }
  return out.size() - before;
}

size_t pair_runs(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, const glm::vec3* rest, SeamSet& out) {
  if (a.size() < 2 || b.size() < 2) return 0;
  const std::vector<float> sa = arc_lengths(a, rest), sb = arc_lengths(b, rest);
  const float la = sa.back(), lb = sb.back();
  if (!(la > 0.f) || !(lb > 0.f)) return 0;
  const size_t before = out.size();
  const float snap = 1e-3f * std::min(la, lb);
  auto add = [&](uint32_t v, uint32_t p, uint32_t q, float w) {
    if (v != p && v != q) out.add(v, p, q, w);
  };
  for (size_t i = 0; i < a.size(); ++i) {
    uint32_t p, q;
    float w;
    point_at(b, sb, sa[i] / la * lb, snap, p, q, w);
    add(a[i], p, q, w);
  }
  // b's inner vertices that no vertex of a landed on
  for (size_t j = 1; j + 1 < b.size(); ++j) {
    const float t = sb[j] / lb * la;
    const size_t k = size_t(std::lower_bound(sa.begin(), sa.end(), t) - sa.begin());
    const bool met = (k < sa.size() && std::abs(sa[k] - t) * lb / la <= snap) ||
                     (k > 0 && std::abs(sa[k - 1] - t) * lb / la <= snap);
    if (met) continue;
    uint32_t p, q;
    float w;
    point_at(a, sa, t, snap, p, q, w);
    add(b[j], p, q, w);
  }
  return out.size() - before;
}

}  // namespace weft
