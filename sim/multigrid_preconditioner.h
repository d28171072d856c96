#pragma once
// A V-cycle of plain-aggregation algebraic multigrid for the 3x3-block systems of the implicit step
// (W dv = h f~, Kang & Cho Eq. 14), used as the preconditioner of conjugate gradients
// (multigrid_solver.h). Block Gauss-Seidel alone removes the residual's rough part in a few sweeps but
// hardly touches its smooth part, which for stiff cloth (h^2 k / m in the thousands) is what carries a
// hand's pull across the cloth; the coarse levels (aggregation_hierarchy.h) remove that part at their
// own scale, so the work per step stays O(n). The last level is one node per piece of cloth: each cycle
// corrects the error of the cloth's mean motion exactly, which sweeps barely reduce (a free-floating
// creased square kept creeping at 0.8 mm/s with a 48-node coarsest level, 0.1 mm/s now). Coarse
// matrices are Galerkin products P^T A P with piecewise-constant P, re-assembled from the fine blocks
// every step; fixed (kinematic) vertices are left out of P, so corrections never move them. Every level
// is stored for SIMD (sliced_block_matrix.h): its Gauss-Seidel sweeps go colour by colour, forward before
// the coarse correction and backward after it, which keeps the cycle symmetric (a valid CG
// preconditioner). Vectors are in the fine level's slot order (SlicedBlockMatrix::to_slots). Nothing
// allocates per step. A large mesh's fine level is cut into two regions (SolverOptions::mg_split_vertices),
// swept Gauss-Seidel within each and Jacobi between them (each reads the other's border from ghost
// slots taken before the sweep: symmetric still), so that two threads can sweep them side by side
// (sim/solve_team.h); the results do not depend on whether they do.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/aggregation_hierarchy.h"
#include "sim/sliced_block_matrix.h"
#include "sim/solve_team.h"
#include "sim/sym3.h"

namespace weft {

class MultigridPreconditioner {
 public:
  // links: the off-diagonal blocks of the fine matrix (one per link, A_ij = A_ji); the first
  // structural_links of them steer the aggregation. fine_parts: the fine level's rows are cut into that
  // many parts (SlicedBlockMatrix: Gauss-Seidel within a part, Jacobi between parts), which the team
  // forms of apply and assemble split between threads.
  MultigridPreconditioner(uint32_t node_count, const std::vector<std::array<uint32_t, 2>>& links,
                          size_t structural_links, int smoothing_sweeps, uint32_t fine_parts = 1);

  // The fine level's diagonal blocks (n) and fixed flags (rows and columns left out), written by the
  // caller before assemble().
  Sym3* fine_diagonal() { return levels_[0].diag.data(); }
  uint8_t* fine_fixed() { return levels_[0].fixed.data(); }
  // Takes the fine level's off-diagonal blocks (one per link, read where they are), builds every coarse
  // matrix from the fine one and stores each level for the sweeps: O(links). With a team, each part
  // stores its own rows of the fine level.
  void assemble(const ScaledLinkBlocks& fine_off, SolveTeam* team = nullptr);

  // The fine level's matrix: its slot order is the order of the vectors below.
  const SlicedBlockMatrix& fine() const { return levels_[0].matrix; }
  // z = B r, B ~ A^-1 (one V-cycle from zero); z is zero at fixed nodes. Slot order. Each part of the
  // fine level runs on its own thread of the team (the restriction sums each part's rows apart, and each
  // part runs the coarse levels itself from the two sums); each part's share of r.z (slice_dot over its
  // slices, in order) goes to rz[part]. The same bits whether the team has a helper or not. A fine level
  // of one part runs the V-cycle on the caller (rz[1] = 0).
  void apply(const float* r, float* z, SolveTeam& team, double rz[SolveTeam::kParts]);

  size_t level_count() const { return levels_.size(); }
  uint32_t node_count(size_t level) const { return uint32_t(levels_[level].diag.size()); }

 private:
  struct Level {
    std::vector<Sym3> diag;       // node order (the Galerkin products work here)
    LinkBlocks off;               // coarse levels: link order (the fine level's are the caller's)
    std::vector<uint8_t> fixed;
    SlicedBlockMatrix matrix;
    // V-cycle vectors (slot order), one set per part of a team (apply: each part runs the coarse levels
    // itself); level 0 has one residual, and no rhs and x.
    SlotVector rhs[SolveTeam::kParts], x[SolveTeam::kParts], residual[SolveTeam::kParts];
    std::vector<uint32_t> coarse_record;  // per slot: the record (4 * slot) of its aggregate one level down
  };
  void cycle(size_t l, const float* rhs, float* x, int part = 0);
  // The V-cycle's step between the smoothing on level l: the residual down to level l + 1, its cycle
  // there, and the correction back up into x.
  void restrict_residual(size_t l, const float* residual, uint32_t first_slot, uint32_t last_slot, float* coarse_rhs,
                         bool clear);
  void prolong(size_t l, const float* coarse_x, float* x, uint32_t first_slot, uint32_t last_slot);

  AggregationHierarchy hierarchy_;
  std::vector<std::array<uint32_t, 2>> fine_links_;
  std::vector<Level> levels_;
  int smoothing_sweeps_;
  SlotVector part_rhs_[SolveTeam::kParts];  // level 1's right-hand side from each fine part (apply with a team)
  // Levels of at most this many nodes (the last few, down to the single node whose correction is the
  // cloth's mean motion) sweep this many times each way: they cost nothing, and with one sweep the
  // V-cycle converged no better than with 12 sweep pairs on a 48-node coarsest level.
  static constexpr size_t kSmallLevel = 48;
  static constexpr int kSmallLevelSweeps = 4;
};

}  // namespace weft
