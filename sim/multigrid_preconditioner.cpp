#include "sim/multigrid_preconditioner.h"

#include <algorithm>

namespace weft {

MultigridPreconditioner::MultigridPreconditioner(uint32_t node_count, const std::vector<std::array<uint32_t, 2>>& links,
                                                 size_t structural_links, int smoothing_sweeps)
    : fine_links_(links),
      hierarchy_(build_aggregation_hierarchy(node_count, links, structural_links)),
      smoothing_sweeps_(std::max(1, smoothing_sweeps)) {
  levels_.resize(hierarchy_.levels.size() + 1);
  for (size_t l = 0; l < levels_.size(); ++l) {
    Level& L = levels_[l];
    L.links = l == 0 ? &fine_links_ : &hierarchy_.levels[l - 1].coarse_link;
    const uint32_t n = l == 0 ? node_count : hierarchy_.levels[l - 1].coarse_count;
    L.adjacency = node_adjacency(n, *L.links);
    L.diag.resize(n);
    L.diag_inverse.resize(n);
    L.off.resize(L.links->size());
    L.entry.resize(L.adjacency.other.size());
    L.fixed.assign(n, 0);
    L.rhs.resize(n);
    L.x.resize(n);
    L.residual.resize(n);
  }
}

void MultigridPreconditioner::assemble() {
  for (size_t l = 0; l < levels_.size(); ++l) {
    Level& L = levels_[l];
    for (size_t i = 0; i < L.diag.size(); ++i) L.diag_inverse[i] = L.fixed[i] ? Sym3{} : L.diag[i].inverse();
    // the blocks in the smoothers' order: rows read them in sequence, not through the link index
    for (size_t e = 0; e < L.entry.size(); ++e) L.entry[e] = L.off[L.adjacency.link[e]];
    if (l + 1 == levels_.size()) break;
    // Galerkin product P^T A P, P piecewise constant over the aggregates, fixed nodes left out.
    const AggregationLevel& agg = hierarchy_.levels[l];
    Level& C = levels_[l + 1];
    std::fill(C.diag.begin(), C.diag.end(), Sym3{});
    std::fill(C.off.begin(), C.off.end(), Sym3{});
    std::fill(C.fixed.begin(), C.fixed.end(), 1);
    for (size_t i = 0; i < L.diag.size(); ++i) {
      if (L.fixed[i]) continue;
      C.diag[agg.aggregate[i]] += L.diag[i];
      C.fixed[agg.aggregate[i]] = 0;
    }
    const auto& links = *L.links;
    for (size_t e = 0; e < links.size(); ++e) {
      const uint32_t i = links[e][0], j = links[e][1];
      if (L.fixed[i] || L.fixed[j]) continue;
      const int32_t c = agg.link_map[e];
      if (c < 0) C.diag[agg.aggregate[i]] += 2.f * L.off[e];  // A_ij + A_ji inside one aggregate
      else C.off[size_t(c)] += L.off[e];
    }
  }
}

void MultigridPreconditioner::smooth_from_zero(Level& L) const {
  // x = 0 before: only the lower neighbours, already updated in this sweep, contribute.
  const uint32_t n = uint32_t(L.diag.size());
  const uint32_t* off = L.adjacency.offset.data();
  const uint32_t* upper = L.adjacency.upper.data();
  const uint32_t* other = L.adjacency.other.data();
  const Sym3* A = L.entry.data();
  glm::vec3* x = L.x.data();
  for (uint32_t i = 0; i < n; ++i) {
    if (L.fixed[i]) {
      x[i] = glm::vec3(0.f);
      continue;
    }
    glm::vec3 s = L.rhs[i];
    for (uint32_t e = off[i]; e < upper[i]; ++e) s -= A[e] * x[other[e]];
    x[i] = L.diag_inverse[i] * s;
  }
}

void MultigridPreconditioner::smooth(Level& L, bool forward) const {
  const uint32_t n = uint32_t(L.diag.size());
  const uint32_t* off = L.adjacency.offset.data();
  const uint32_t* other = L.adjacency.other.data();
  const Sym3* A = L.entry.data();
  glm::vec3* x = L.x.data();
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = forward ? k : n - 1 - k;
    if (L.fixed[i]) continue;
    glm::vec3 s = L.rhs[i];
    for (uint32_t e = off[i]; e < off[i + 1]; ++e) s -= A[e] * x[other[e]];
    x[i] = L.diag_inverse[i] * s;
  }
}

void MultigridPreconditioner::cycle(size_t l) {
  Level& L = levels_[l];
  smooth_from_zero(L);
  if (l + 1 == levels_.size()) {
    smooth(L, false);
    for (int s = 1; s < coarsest_sweeps_; ++s) {
      smooth(L, true);
      smooth(L, false);
    }
    return;
  }
  for (int s = 1; s < smoothing_sweeps_; ++s) smooth(L, true);
  coarse_correction(l);
  for (int s = 0; s < smoothing_sweeps_; ++s) smooth(L, false);
}

void MultigridPreconditioner::coarse_correction(size_t l) {
  Level& L = levels_[l];
  const uint32_t n = uint32_t(L.diag.size());
  const uint32_t* off = L.adjacency.offset.data();
  const uint32_t* other = L.adjacency.other.data();
  Level& C = levels_[l + 1];
  const AggregationLevel& agg = hierarchy_.levels[l];
  std::fill(C.rhs.begin(), C.rhs.end(), glm::vec3(0.f));
  if (smoothing_sweeps_ == 1) {
    // Right after the one forward sweep from zero, rhs_i - W_ii x_i - sum_{j < i} W_ij x_j = 0 by
    // construction: the residual is what the upper neighbours' new values add.
    const uint32_t* upper = L.adjacency.upper.data();
    for (uint32_t i = 0; i < n; ++i) {
      if (L.fixed[i]) continue;
      glm::vec3 s(0.f);
      for (uint32_t e = upper[i]; e < off[i + 1]; ++e) s -= L.entry[e] * L.x[other[e]];
      C.rhs[agg.aggregate[i]] += s;
    }
  } else {
    for (uint32_t i = 0; i < n; ++i) {
      if (L.fixed[i]) continue;
      glm::vec3 s = L.rhs[i] - L.diag[i] * L.x[i];
      for (uint32_t e = off[i]; e < off[i + 1]; ++e) s -= L.entry[e] * L.x[other[e]];
      C.rhs[agg.aggregate[i]] += s;
    }
  }
  cycle(l + 1);
  for (uint32_t i = 0; i < n; ++i)
    if (!L.fixed[i]) L.x[i] += C.x[agg.aggregate[i]];
}

void MultigridPreconditioner::apply(const glm::vec3* r, glm::vec3* z) {
  Level& L = levels_[0];
  std::copy(r, r + L.rhs.size(), L.rhs.begin());
  cycle(0);
  std::copy(L.x.begin(), L.x.end(), z);
}

void MultigridPreconditioner::multiply(const glm::vec3* in, glm::vec3* out) const {
  const Level& L = levels_[0];
  const size_t n = L.diag.size();
  for (size_t i = 0; i < n; ++i) out[i] = L.diag[i] * in[i];
  const auto& links = *L.links;
  for (size_t e = 0; e < links.size(); ++e) {
    const uint32_t i = links[e][0], j = links[e][1];
    out[i] += L.off[e] * in[j];
    out[j] += L.off[e] * in[i];
  }
  for (size_t i = 0; i < n; ++i)
    if (L.fixed[i]) out[i] = glm::vec3(0.f);
}

}  // namespace weft
