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
                                                 size_t structural_links, int smoothing_sweeps, uint32_t fine_parts)
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
    L.matrix = SlicedBlockMatrix(n, level_links, l == 0 ? fine_parts : 1);
    const size_t floats = 4 * size_t(L.matrix.slot_count());
    if (l > 0) {
      for (int p = 0; p < SolveTeam::kParts; ++p) {
        L.rhs[p].assign(floats, 0.f);
        L.x[p].assign(floats, 0.f);
        L.residual[p].assign(floats, 0.f);
      }
    } else {
      L.residual[0].assign(floats, 0.f);
    }
  }
  if (levels_.size() > 1)
    for (auto& r : part_rhs_) r.assign(levels_[1].rhs[0].size(), 0.f);
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

void MultigridPreconditioner::assemble(const ScaledLinkBlocks& fine_off, SolveTeam* team) {
  for (size_t l = 0; l < levels_.size(); ++l) {
    Level& L = levels_[l];
    const ScaledLinkBlocks off = l == 0 ? fine_off : ScaledLinkBlocks{&L.off};
    if (l == 0 && team && L.matrix.part_count() == SolveTeam::kParts) {
      team->run(1, [&](int part, int) {
        L.matrix.for_part_runs(uint32_t(part), [&](uint32_t first, uint32_t last) {
          L.matrix.fill(L.diag.data(), off, L.fixed.data(), first, last);
        });
      });
    } else {
      L.matrix.fill(L.diag.data(), off, L.fixed.data());
    }
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

void MultigridPreconditioner::cycle(size_t l, const float* rhs, float* x, int part) {
  Level& L = levels_[l];
  // The last level has no links (coarsening stops only when nothing merges): one sweep solves it exactly.
  if (l + 1 == levels_.size()) {
    L.matrix.sweep_from_zero(rhs, x, nullptr);
    return;
  }
  // One forward sweep from zero (more on the small levels, where they cost nothing); after exactly one,
  // the residual comes from the higher colours alone.
  float* residual = L.residual[l == 0 ? 0 : part].data();
  const int sweeps = L.diag.size() <= kSmallLevel ? kSmallLevelSweeps : smoothing_sweeps_;
  L.matrix.sweep_from_zero(rhs, x, sweeps == 1 ? residual : nullptr);
  if (sweeps > 1) {
    for (int s = 1; s < sweeps; ++s) L.matrix.sweep(rhs, x, true);
    L.matrix.publish_ghosts(x);
    L.matrix.residual(rhs, x, residual);
  }
  // restrict, correct on the coarse level, prolong (fixed and padding slots stay 0)
  Level& C = levels_[l + 1];
  restrict_residual(l, residual, 0, L.matrix.slot_count(), C.rhs[part].data(), true);
  cycle(l + 1, C.rhs[part].data(), C.x[part].data(), part);
  prolong(l, C.x[part].data(), x, 0, L.matrix.slot_count());
  for (int s = 0; s < sweeps; ++s) L.matrix.sweep(rhs, x, false);
}

void MultigridPreconditioner::restrict_residual(size_t l, const float* res, uint32_t first_slot, uint32_t last_slot,
                                                float* coarse_rhs, bool clear) {
  const Level& L = levels_[l];
  if (clear) std::fill(coarse_rhs, coarse_rhs + levels_[l + 1].rhs[0].size(), 0.f);
  // whole 16-byte records (the 4th floats are 0 on both sides): one vector add each (glm::vec4 copies:
  // with the pointers possibly aliased, the compiler kept four scalar load-add-stores per record)
  for (uint32_t s = first_slot; s < last_slot; ++s) {
    float* c = coarse_rhs + L.coarse_record[s];
    const glm::vec4 sum = load4(c) + load4(res + 4 * s);
    store4(c, sum);
  }
}

void MultigridPreconditioner::prolong(size_t l, const float* coarse_x, float* x, uint32_t first_slot,
                                      uint32_t last_slot) {
  const Level& L = levels_[l];
  const float* free = L.matrix.free_mask();
  for (uint32_t s = first_slot; s < last_slot; ++s) {
    const glm::vec4 sum = load4(x + 4 * s) + free[s] * load4(coarse_x + L.coarse_record[s]);
    store4(x + 4 * s, sum);
  }
}

void MultigridPreconditioner::apply(const float* r, float* z, SolveTeam& team, double* rz) {
  Level& L = levels_[0];
  const SlicedBlockMatrix& A = L.matrix;
  constexpr uint32_t kLanes = SlicedBlockMatrix::kLanes;
  auto part_rz = [&](uint32_t p) {  // (one part: the order of one slice_dot over the whole vector)
    double sum = 0;
    A.for_part_runs(p, [&](uint32_t first, uint32_t last) { sum += slice_dot(r, z, first, last); });
    rz[p] = sum;
  };
  // One part, and cycle(0)'s other cases (one level, several sweeps), stay on the caller.
  if (A.part_count() != SolveTeam::kParts || levels_.size() == 1 || L.diag.size() <= kSmallLevel ||
      smoothing_sweeps_ != 1) {
    cycle(0, r, z);
    for (uint32_t p = 0; p < SolveTeam::kParts; ++p) part_rz(p);
    return;
  }
  // cycle(0) in phases, each part on its own rows: the forward sweep; the residual and its restriction;
  // the coarse levels, each part for itself from the sum of both parts' restrictions (the same sums in
  // the same order, so the same correction: cheaper than handing one part's result to the other), and
  // the correction; the backward sweep, and r.z. A part publishes its values to the other's ghost slots
  // after the phases that write them, and both read them in the next phase only. No pass writes the
  // zero slice (padding entries read it): cleared once, before.
  A.clear_zero_slice(z);
  A.clear_zero_slice(L.residual[0].data());
  Level& C = levels_[1];
  team.run(4, [&](int part, int phase) {
    const uint32_t p = uint32_t(part);
    switch (phase) {
      case 0:
        A.for_part_runs(p, [&](uint32_t first, uint32_t last) { A.sweep_lower(r, z, first, last); });
        A.publish_ghosts(z, p);
        break;
      case 1: {
        float* coarse = part_rhs_[p].data();
        std::fill(coarse, coarse + part_rhs_[p].size(), 0.f);
        A.for_part_runs(p, [&](uint32_t first, uint32_t last) {
          A.upper_residual(z, L.residual[0].data(), first, last);
          restrict_residual(0, L.residual[0].data(), first * kLanes, last * kLanes, coarse, false);
        });
        break;
      }
      case 2: {
        // (without a helper, part 1 takes part 0's correction: the same numbers)
        const bool solve = p == 0 || team.has_helper();
        if (solve) {
          SlotVector& rhs = C.rhs[p];
          for (size_t k = 0; k < rhs.size(); ++k) rhs[k] = part_rhs_[0][k] + part_rhs_[1][k];
          cycle(1, rhs.data(), C.x[p].data(), part);
        }
        const float* coarse_x = C.x[solve ? p : 0].data();
        A.for_part_runs(p, [&](uint32_t first, uint32_t last) {
          prolong(0, coarse_x, z, first * kLanes, last * kLanes);
        });
        A.publish_ghosts(z, p);
        break;
      }
      default:  // colour by colour, descending (for_part_runs ascends)
        for (uint32_t c = A.colour_count(); c-- > 0;) {
          const auto [first, last] = A.part_slices(c, p);
          A.sweep(r, z, false, first, last);
        }
        part_rz(p);
    }
  });
}

}  // namespace weft
