#include "sim/multigrid_preconditioner.h"

#include <algorithm>
#include <cstring>

namespace weft {
namespace {

glm::vec4 load4(const float* p) {
  glm::vec4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
void store4(float* p, const glm::vec4& v) { std::memcpy(p, &v, sizeof v); }

}  // namespace

MultigridPreconditioner::MultigridPreconditioner(uint32_t node_count, const std::vector<std::array<uint32_t, 2>>& links,
                                                 size_t structural_links, int smoothing_sweeps)
    : hierarchy_(build_aggregation_hierarchy(node_count, links, structural_links, 1)),
      fine_links_(links),
      smoothing_sweeps_(std::max(1, smoothing_sweeps)) {
  levels_.resize(hierarchy_.levels.size() + 1);
  for (size_t l = 0; l < levels_.size(); ++l) {
    Level& L = levels_[l];
    const auto& level_links = l == 0 ? fine_links_ : hierarchy_.levels[l - 1].coarse_link;
    const uint32_t n = l == 0 ? node_count : hierarchy_.levels[l - 1].coarse_count;
    L.diag.resize(n);
    if (l > 0) L.off.resize(level_links.size());
    L.fixed.assign(n, 0);
    L.matrix = SlicedBlockMatrix(n, level_links);
    const size_t floats = 4 * size_t(L.matrix.slot_count());
    if (l > 0) {
      L.rhs.assign(floats, 0.f);
      L.x.assign(floats, 0.f);
    }
    L.residual.assign(floats, 0.f);
  }
  // the slot of each slot's aggregate one level down (padding slots: the coarse level's last, zero, slot)
  for (size_t l = 0; l + 1 < levels_.size(); ++l) {
    Level& L = levels_[l];
    const SlicedBlockMatrix& C = levels_[l + 1].matrix;
    L.coarse_record.assign(L.matrix.slot_count(), 4 * (C.slot_count() - 1));
    for (uint32_t s = 0; s < L.matrix.slot_count(); ++s)
      if (L.matrix.node(s) != SlicedBlockMatrix::kPad)
        L.coarse_record[s] = 4 * C.slot(hierarchy_.levels[l].aggregate[L.matrix.node(s)]);
  }
}

void MultigridPreconditioner::assemble(const ScaledLinkBlocks& fine_off) {
  for (size_t l = 0; l < levels_.size(); ++l) {
    Level& L = levels_[l];
    const ScaledLinkBlocks off = l == 0 ? fine_off : ScaledLinkBlocks{&L.off};
    L.matrix.fill(L.diag.data(), off, L.fixed.data());
    if (l + 1 == levels_.size()) break;
    // Galerkin product P^T A P, P piecewise constant over the aggregates, fixed nodes left out.
    const AggregationLevel& agg = hierarchy_.levels[l];
    Level& C = levels_[l + 1];
    std::fill(C.diag.begin(), C.diag.end(), Sym3{});
    C.off.clear();
    std::fill(C.fixed.begin(), C.fixed.end(), 1);
    for (size_t i = 0; i < L.diag.size(); ++i) {
      if (L.fixed[i]) continue;
      C.diag[agg.aggregate[i]] += L.diag[i];
      C.fixed[agg.aggregate[i]] = 0;
    }
    const auto& links = l == 0 ? fine_links_ : hierarchy_.levels[l - 1].coarse_link;
    for (size_t e = 0; e < links.size(); ++e) {
      const uint32_t i = links[e][0], j = links[e][1];
      if (L.fixed[i] || L.fixed[j]) continue;
      const int32_t c = agg.link_map[e];
      if (c < 0) C.diag[agg.aggregate[i]] += 2.f * off.get(e);  // A_ij + A_ji inside one aggregate
      else C.off.add(size_t(c), off.get(e));
    }
  }
}

void MultigridPreconditioner::cycle(size_t l, const float* rhs, float* x) {
  Level& L = levels_[l];
  // The last level has no links (coarsening stops only when nothing merges): one sweep solves it exactly.
  if (l + 1 == levels_.size()) {
    L.matrix.sweep_from_zero(rhs, x, nullptr);
    return;
  }
  // One forward sweep from zero (more on the small levels, where they cost nothing); after exactly one,
  // the residual comes from the higher colours alone.
  const int sweeps = L.diag.size() <= kSmallLevel ? kSmallLevelSweeps : smoothing_sweeps_;
  L.matrix.sweep_from_zero(rhs, x, sweeps == 1 ? L.residual.data() : nullptr);
  if (sweeps > 1) {
    for (int s = 1; s < sweeps; ++s) L.matrix.sweep(rhs, x, true);
    L.matrix.residual(rhs, x, L.residual.data());
  }
  // restrict, correct on the coarse level, prolong (fixed and padding slots stay 0)
  Level& C = levels_[l + 1];
  std::fill(C.rhs.begin(), C.rhs.end(), 0.f);
  const uint32_t slots = L.matrix.slot_count();
  const float* res = L.residual.data();
  // whole 16-byte records (the 4th floats are 0 on both sides): one vector add each (glm::vec4 copies:
  // with the pointers possibly aliased, the compiler kept four scalar load-add-stores per record)
  float* coarse_rhs = C.rhs.data();
  for (uint32_t s = 0; s < slots; ++s) {
    float* c = coarse_rhs + L.coarse_record[s];
    const glm::vec4 sum = load4(c) + load4(res + 4 * s);
    store4(c, sum);
  }
  cycle(l + 1, C.rhs.data(), C.x.data());
  const float* free = L.matrix.free_mask();
  const float* coarse_x = C.x.data();
  for (uint32_t s = 0; s < slots; ++s) {
    const glm::vec4 sum = load4(x + 4 * s) + free[s] * load4(coarse_x + L.coarse_record[s]);
    store4(x + 4 * s, sum);
  }
  for (int s = 0; s < sweeps; ++s) L.matrix.sweep(rhs, x, false);
}

void MultigridPreconditioner::apply(const float* r, float* z) { cycle(0, r, z); }

}  // namespace weft
