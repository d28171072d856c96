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
// allocates per step.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/aggregation_hierarchy.h"
#include "sim/sliced_block_matrix.h"
#include "sim/sym3.h"

namespace weft {

class MultigridPreconditioner {
 public:
  // links: the off-diagonal blocks of the fine matrix (one per link, A_ij = A_ji); the first
  // structural_links of them steer the aggregation.
  MultigridPreconditioner(uint32_t node_count, const std::vector<std::array<uint32_t, 2>>& links,
                          size_t structural_links, int smoothing_sweeps);

  // The fine level's diagonal blocks (n) and fixed flags (rows and columns left out), written by the
  // caller before assemble().
  Sym3* fine_diagonal() { return levels_[0].diag.data(); }
  uint8_t* fine_fixed() { return levels_[0].fixed.data(); }
  // Takes the fine level's off-diagonal blocks (one per link, read where they are), builds every coarse
  // matrix from the fine one and stores each level for the sweeps: O(links).
  void assemble(const ScaledLinkBlocks& fine_off);

  // The fine level's matrix: its slot order is the order of the vectors below.
  const SlicedBlockMatrix& fine() const { return levels_[0].matrix; }
  // z = B r, B ~ A^-1 (one V-cycle from zero); z is zero at fixed nodes. Slot order.
  void apply(const float* r, float* z);
  // out = A in on the fine level; fixed rows give zero, fixed columns count (a kinematic dv moves its
  // neighbours' rows). Slot order.
  void multiply(const float* in, float* out) const { levels_[0].matrix.multiply(in, out); }

  size_t level_count() const { return levels_.size(); }
  uint32_t node_count(size_t level) const { return uint32_t(levels_[level].diag.size()); }

 private:
  struct Level {
    std::vector<Sym3> diag;       // node order (the Galerkin products work here)
    LinkBlocks off;               // coarse levels: link order (the fine level's are the caller's)
    std::vector<uint8_t> fixed;
    SlicedBlockMatrix matrix;
    SlotVector rhs, x, residual;   // V-cycle vectors (slot order; rhs and x unused on level 0)
    std::vector<uint32_t> coarse_record;  // per slot: the record (4 * slot) of its aggregate one level down
  };
  void cycle(size_t l, const float* rhs, float* x);

  AggregationHierarchy hierarchy_;
  std::vector<std::array<uint32_t, 2>> fine_links_;
  std::vector<Level> levels_;
  int smoothing_sweeps_;
  // Levels of at most this many nodes (the last few, down to the single node whose correction is the
  // cloth's mean motion) sweep this many times each way: they cost nothing, and with one sweep the
  // V-cycle converged no better than with 12 sweep pairs on a 48-node coarsest level.
  static constexpr size_t kSmallLevel = 48;
  static constexpr int kSmallLevelSweeps = 4;
};

}  // namespace weft
