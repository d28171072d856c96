#pragma once
// A symmetric sparse matrix of 3x3 blocks (one per node, one per link), stored for SIMD Gauss-Seidel
// sweeps and products: rows grouped by colour (no two rows of a colour share a link, vertex_colouring.h),
// each colour cut into slices of 8 rows, each slice's entries padded to its longest row and stored lane
// by lane (the SELL-8 layout). A sweep then updates 8 rows at once from the other colours, and a product
// handles 8 rows at once. Neighbours are read from padded 16-byte records {x y z 0}, one load each,
// transposed in registers (8-wide gathers measured 2.4 times slower on this machine's AVX2).
//
// Vectors on the matrix live in slot order: slot = a row's position, padding rows included, 4 floats a
// slot, the 4th always 0. Padding rows and fixed rows have zero blocks, so they read as 0 in every result.
// Each slice's entries come in two groups: neighbours of a lower colour first, then of a higher colour.
// A forward sweep from x = 0 reads only the first group (the rest are still 0), and right after it the
// residual is what the second group adds, so the first sweep and the residual of a V-cycle cost one
// pass over the entries together (multigrid_preconditioner.h).
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/aligned_allocator.h"
#include "sim/sym3.h"

namespace weft {

class SlicedBlockMatrix {
 public:
  static constexpr uint32_t kLanes = 8;
  static constexpr uint32_t kPad = UINT32_MAX;  // node of a padding slot, link of a padding entry

  SlicedBlockMatrix() = default;
  SlicedBlockMatrix(uint32_t node_count, const std::vector<std::array<uint32_t, 2>>& links);

  uint32_t node_count() const { return uint32_t(slot_of_node_.size()); }
  uint32_t slot_count() const { return uint32_t(node_of_slot_.size()); }
  uint32_t slot(uint32_t node) const { return slot_of_node_[node]; }
  uint32_t node(uint32_t slot) const { return node_of_slot_[slot]; }  // kPad for padding
  uint32_t colour_count() const { return colour_count_; }
  // Stored entries (padding included) per sweep over all of them: the cost of one pass.
  size_t stored_entries() const { return entry_link_.size(); }

  // The blocks for this step: diagonal per node, off-diagonal per link; fixed nodes' rows become zero
  // (their columns stay: a fixed node's value moves its neighbours' rows in multiply). O(entries).
  void fill(const Sym3* diag, const ScaledLinkBlocks& off, const uint8_t* fixed);
  bool fixed_slot(uint32_t slot) const { return fixed_slot_[slot] != 0; }
  const float* free_mask() const { return free_mask_.data(); }  // per slot: 0 for fixed and padding, else 1

  // y = A x.
  void multiply(const float* x, float* y) const;
  // r = b - A x.
  void residual(const float* b, const float* x, float* r) const;
  // One block Gauss-Seidel sweep over the colours, ascending (forward) or descending.
  void sweep(const float* b, float* x, bool forward) const;
  // The forward sweep from x = 0 (x is written, not read), then r = b - A x from the higher-colour
  // neighbours alone (r may be null to skip it).
  void sweep_from_zero(const float* b, float* x, float* r) const;

  // Node-ordered vec3 values to slot-ordered records and back (padding slots get 0).
  void to_slots(const glm::vec3* nodes, float* slots) const;
  void from_slots(const float* slots, glm::vec3* nodes) const;

 private:
  struct Slice {
    uint32_t entry_begin;  // first entry row (8 lanes each) of this slice
    uint32_t lower;        // entry rows of lower-colour neighbours
    uint32_t upper;        // entry rows of higher-colour neighbours, after them
  };
  enum class Pass { All, Lower, Upper };
  template <Pass pass>
  void accumulate(const Slice& s, const float* x, float out[3][kLanes]) const;
  void slice_sweep(uint32_t si, const float* b, float* x, Pass pass) const;

  std::vector<uint32_t> slot_of_node_, node_of_slot_;
  std::vector<Slice> slices_;
  uint32_t colour_count_ = 0;
  std::vector<uint32_t> entry_link_;   // per entry row and lane: the link, kPad for padding
  std::vector<uint32_t> entry_record_; // per entry row and lane: the neighbour's record offset (4 * slot)
  AlignedFloats entry_block_;          // per entry row: xx[8] xy[8] xz[8] yy[8] yz[8] zz[8]
  AlignedFloats diag_block_, diag_inverse_;  // per slice, same layout
  std::vector<uint8_t> fixed_slot_;
  std::vector<float> free_mask_;
};

// Slot-ordered vectors: 4 floats a slot, 32-byte aligned.
using SlotVector = AlignedFloats;

}  // namespace weft
