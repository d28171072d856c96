#pragma once
// A V-cycle of plain-aggregation algebraic multigrid for the 3x3-block systems of the implicit step
// (W dv = h f~, Kang & Cho Eq. 14), used as the preconditioner of conjugate gradients
// (multigrid_solver.h). Block Gauss-Seidel alone removes the residual's rough part in a few sweeps but
// hardly touches its smooth part, which for stiff cloth (h^2 k / m in the thousands) is what carries a
// hand's pull across the cloth; the coarse levels (aggregation_hierarchy.h) remove that part at their
// own scale, so the work per step stays O(n). Coarse matrices are Galerkin products P^T A P with
// piecewise-constant P, re-assembled from the fine blocks every step; fixed (kinematic) vertices are
// left out of P, so corrections never move them. Forward sweeps before and backward sweeps after the
// coarse correction keep the cycle symmetric (a valid CG preconditioner). Nothing allocates per step.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/aggregation_hierarchy.h"
#include "sim/sym3.h"

namespace weft {

class MultigridPreconditioner {
 public:
  // links: the off-diagonal blocks of the fine matrix (one per link, A_ij = A_ji); the first
  // structural_links of them steer the aggregation.
  MultigridPreconditioner(uint32_t node_count, const std::vector<std::array<uint32_t, 2>>& links,
                          size_t structural_links, int smoothing_sweeps);

  // The fine level's matrix, written by the caller before assemble(): diagonal blocks (n), off-diagonal
  // blocks per link and fixed flags (rows and columns left out).
  Sym3* fine_diagonal() { return levels_[0].diag.data(); }
  Sym3* fine_off_diagonal() { return levels_[0].off.data(); }
  uint8_t* fine_fixed() { return levels_[0].fixed.data(); }
  // Inverts the fine diagonal and builds every coarse matrix from it: O(links) per level.
  void assemble();

  // z = B r, B ~ A^-1 (one V-cycle from zero); z is zero at fixed nodes.
  void apply(const glm::vec3* r, glm::vec3* z);
  // out = A in on the fine level; fixed rows give zero, fixed columns count (a kinematic dv moves its
  // neighbours' rows).
  void multiply(const glm::vec3* in, glm::vec3* out) const;

  size_t level_count() const { return levels_.size(); }
  uint32_t node_count(size_t level) const { return uint32_t(levels_[level].diag.size()); }

 private:
  struct Level {
    const std::vector<std::array<uint32_t, 2>>* links = nullptr;
    NodeAdjacency adjacency;
    std::vector<Sym3> diag, diag_inverse, off;
    std::vector<Sym3> entry;  // off-diagonal block per adjacency entry (copied from off each step)
    std::vector<uint8_t> fixed;
    std::vector<glm::vec3> rhs, x, residual;  // V-cycle vectors
  };
  void smooth(Level& level, bool forward) const;
  void smooth_from_zero(Level& level) const;  // the first forward sweep, from x = 0
  void cycle(size_t l);
  void coarse_correction(size_t l);

  std::vector<std::array<uint32_t, 2>> fine_links_;
  AggregationHierarchy hierarchy_;
  std::vector<Level> levels_;
  int smoothing_sweeps_;
  int coarsest_sweeps_ = 12;  // symmetric pairs on the coarsest level (a few dozen nodes)
};

}  // namespace weft
