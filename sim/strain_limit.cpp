#include "sim/strain_limit.h"

#include <algorithm>

namespace weft {

float strain_excess(float length, float rest_length, float max_strain) {
  return std::max(0.f, length - (1.f + max_strain) * rest_length);
}

void StrainLimitScratch::resize(const ClothModel& model) {
  const size_t n = model.vertex_count(), ne = model.edge_count;
  edge_offset.assign(n + 1, 0);
  for (size_t e = 0; e < ne; ++e) {
    ++edge_offset[model.link[e][0] + 1];
    ++edge_offset[model.link[e][1] + 1];
  }
  for (size_t i = 0; i < n; ++i) edge_offset[i + 1] += edge_offset[i];
  vertex_edge.resize(edge_offset[n]);
  std::vector<uint32_t> fill(edge_offset.begin(), edge_offset.end() - 1);
  for (size_t e = 0; e < ne; ++e) {
    vertex_edge[fill[model.link[e][0]]++] = uint32_t(e);
    vertex_edge[fill[model.link[e][1]]++] = uint32_t(e);
  }
  current.clear();
  next.clear();
  current.reserve(ne);
  next.reserve(ne);
  queued.assign(ne, 0);
  moved.resize(n);
  weld_next.resize(n);
  for (size_t i = 0; i < n; ++i) weld_next[i] = uint32_t(i);
  weld_root.resize(n);
  for (size_t i = 0; i < n; ++i) weld_root[i] = uint32_t(i);
  weld_inv_mass.assign(n, 0.f);
  weld_members.clear();
  weld_members.reserve(n);
}

namespace {

// The pass: a first sweep over every edge (seed null) or over the worklist seeded with the edges of
// `seed`'s vertices and those the last pass left, then worklist sweeps.
void run_pass(const ClothModel& model, const uint8_t* kinematic, const StrainLimitParams& params, float h,
              const VertexSet* seed, StrainLimitScratch& scratch, glm::vec3* x, glm::vec3* v, StrainLimitStats& stats) {
  stats = {};
  scratch.moved.clear();
  if (!params.enabled) return;
  const auto* link = model.link.data();
  const float* l0 = model.rest_length.data();
  const float* inv_mass = model.inv_mass.data();
  const uint32_t* weld_next = scratch.weld_next.data();
  const uint32_t* weld_root = scratch.weld_root.data();
  const float* weld_inv_mass = scratch.weld_inv_mass.data();
  // Sewn seams welded (sim/sewn_weld.h): the sweeps take relax_welded, which moves a welded end's ring; the
  // plain relax below is kept as it was, so that every scene without seams steps bit for bit as before.
  const bool welded = !scratch.weld_members.empty();
  // An edge over the limit is pulled back to 0.1 % inside it: the gap is the hysteresis that keeps rounding
  // from leaving edges "over", and a limited edge never reads above max_strain.
  const float detect = 1.f + params.max_strain;
  const float stretch = detect - 1e-3f;
  // The pass has converged once a sweep corrects no edge longer than the limit + `tolerance`: the last
  // sweeps of a long worklist only shave fractions of a millimetre off a band at the limit.
  const float settled = detect + params.tolerance;
  float worst = 0.f;  // largest l / l0 of an edge corrected in this sweep

  auto queue_edges_of = [&](uint32_t vertex) {
    for (uint32_t k = scratch.edge_offset[vertex]; k < scratch.edge_offset[vertex + 1]; ++k) {
      const uint32_t f = scratch.vertex_edge[k];
      if (!scratch.queued[f]) {
        scratch.queued[f] = 1;
        scratch.next.push_back(f);  // within the reserved capacity (nedge): no allocation
      }
    }
  };
  // Corrects edge e if it is over the limit; queues the edges around its ends for the next sweep.
  auto relax = [&](uint32_t e) {
    const uint32_t i = link[e][0], j = link[e][1];
    const glm::vec3 d = x[j] - x[i];
    const float lmax = stretch * l0[e], ldetect = detect * l0[e];
    const float len2 = glm::dot(d, d);
    if (len2 <= ldetect * ldetect) return false;  // the common case: no square root
    const float wi = kinematic[i] ? 0.f : inv_mass[i], wj = kinematic[j] ? 0.f : inv_mass[j];
    const float w = wi + wj;
    if (w == 0.f) return false;
    const float len = std::sqrt(len2);
    worst = std::max(worst, len / l0[e]);
    const glm::vec3 u = d / len;
    const float s = (len - lmax) / w;
    x[i] += (s * wi) * u;
    x[j] -= (s * wj) * u;
    stats.largest_move = std::max(stats.largest_move, s * std::max(wi, wj));
    if (params.velocity_from_correction) {
      v[i] += (s * wi / h) * u;
      v[j] -= (s * wj / h) * u;
    }
    // remove the relative velocity that stretches the edge further (momentum kept)
    const float vrel = glm::dot(v[j] - v[i], u);
    if (vrel > 0.f) {
      v[i] += (vrel * wi / w) * u;
      v[j] -= (vrel * wj / w) * u;
    }
    if (wi > 0.f) scratch.moved.insert(i);
    if (wj > 0.f) scratch.moved.insert(j);
    queue_edges_of(i);
    queue_edges_of(j);
    return true;
  };

  // Corrects edge e like relax, an end welded to others moving their whole ring by the same amount with the
  // ring's mass, so that the seam stays closed.
  auto relax_welded = [&](uint32_t e) {
    const uint32_t i = link[e][0], j = link[e][1];
    const glm::vec3 d = x[j] - x[i];
    const float lmax = stretch * l0[e], ldetect = detect * l0[e];
    const float len2 = glm::dot(d, d);
    if (len2 <= ldetect * ldetect) return false;
    const bool weld_i = weld_next[i] != i, weld_j = weld_next[j] != j;
    if (weld_i && weld_j && weld_root[i] == weld_root[j]) return false;  // one welded body: no length to change
    const float wi = weld_i ? weld_inv_mass[i] : kinematic[i] ? 0.f : inv_mass[i];
    const float wj = weld_j ? weld_inv_mass[j] : kinematic[j] ? 0.f : inv_mass[j];
    const float w = wi + wj;
    if (w == 0.f) return false;
    const float len = std::sqrt(len2);
    worst = std::max(worst, len / l0[e]);
    const glm::vec3 u = d / len;
    const float s = (len - lmax) / w;
    const glm::vec3 dxi = (s * wi) * u, dxj = (-s * wj) * u;
    stats.largest_move = std::max(stats.largest_move, s * std::max(wi, wj));
    glm::vec3 dvi = params.velocity_from_correction ? dxi / h : glm::vec3(0.f);
    glm::vec3 dvj = params.velocity_from_correction ? dxj / h : glm::vec3(0.f);
    const float vrel = glm::dot(v[j] + dvj - v[i] - dvi, u);  // the stretching relative velocity, removed
    if (vrel > 0.f) {
      dvi += (vrel * wi / w) * u;
      dvj -= (vrel * wj / w) * u;
    }
    auto move = [&](uint32_t a, float wa, const glm::vec3& dx, const glm::vec3& dv) {
      uint32_t k = a;
      do {
        x[k] += dx;
        v[k] += dv;
        if (wa > 0.f) scratch.moved.insert(k);
        queue_edges_of(k);
        k = weld_next[k];
      } while (k != a);
    };
    move(i, wi, dxi, dvi);
    move(j, wj, dxj, dvj);
    return true;
  };

  // What an earlier pass left over (its sweeps ran out) is dropped: a cloth held by two corners keeps a
  // band of edges at the limit along its top row that no number of sweeps quite satisfies, and carried
  // into every pass of the collider alternation it cost 24 sweeps a pass, 16 passes a tick (0.35 ms of
  // the table demo's slowest ticks) for edges no collider touched.
  for (uint32_t e : scratch.next) scratch.queued[e] = 0;
  scratch.next.clear();
  if (seed)
    for (uint32_t i : seed->list) queue_edges_of(i);
  const int sweeps = seed ? params.near_iterations : params.iterations;
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    uint32_t corrected = 0;
    worst = 0.f;
    if (sweep == 0 && !seed) {
      if (welded)
        for (size_t e = 0; e < model.edge_count; ++e) corrected += relax_welded(uint32_t(e));
      else
        for (size_t e = 0; e < model.edge_count; ++e) corrected += relax(uint32_t(e));
    } else {
      if (scratch.next.empty()) break;
      std::swap(scratch.current, scratch.next);
      scratch.next.clear();
      for (uint32_t e : scratch.current) scratch.queued[e] = 0;
      // Sweeps alternate direction (symmetric Gauss-Seidel): a correction then travels the whole length
      // of a chain hanging from a held vertex in one sweep, whichever way the edges are numbered.
      const size_t m = scratch.current.size();
      if (welded)
        for (size_t k = 0; k < m; ++k) corrected += relax_welded(scratch.current[sweep % 2 ? m - 1 - k : k]);
      else
        for (size_t k = 0; k < m; ++k) corrected += relax(scratch.current[sweep % 2 ? m - 1 - k : k]);
    }
    stats.sweeps = sweep + 1;
    stats.corrected += corrected;
    if (corrected == 0) {
      // nothing moved in this sweep: what it queued is nothing (a correction queues), so `next` is empty
      break;
    }
    if (worst <= settled) break;  // what is left is within the tolerance (the next pass drops it)
  }
}

}  // namespace

void limit_strain(const ClothModel& model, const uint8_t* kinematic, const StrainLimitParams& params, float h,
                  StrainLimitScratch& scratch, glm::vec3* x, glm::vec3* v, StrainLimitStats& stats) {
  run_pass(model, kinematic, params, h, nullptr, scratch, x, v, stats);
}

void limit_strain_near(const ClothModel& model, const uint8_t* kinematic, const StrainLimitParams& params, float h,
                       const VertexSet& around, StrainLimitScratch& scratch, glm::vec3* x, glm::vec3* v,
                       StrainLimitStats& stats) {
  run_pass(model, kinematic, params, h, &around, scratch, x, v, stats);
}

EdgeStrainPeak most_stretched_edge(const ClothModel& model, const glm::vec3* x) {
  EdgeStrainPeak peak;
  for (size_t e = 0; e < model.edge_count; ++e) {
    const float strain = glm::length(x[model.link[e][1]] - x[model.link[e][0]]) / model.rest_length[e] - 1.f;
    if (strain > peak.strain) peak = {strain, uint32_t(e)};
  }
  return peak;
}

}  // namespace weft
