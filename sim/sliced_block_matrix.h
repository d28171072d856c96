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
  // parts > 1: each colour's rows are cut into that many parts, each one region of the mesh and padded
  // to whole slices, for passes split over threads (part_slices; sim/solve_team.h). A row reads the
  // other parts' values from ghost slots of its own part (after the zero slice), which the owning part
  // fills (publish_ghosts): Gauss-Seidel within a part, Jacobi between parts.
  SlicedBlockMatrix(uint32_t node_count, const std::vector<std::array<uint32_t, 2>>& links, uint32_t parts = 1);

  uint32_t node_count() const { return uint32_t(slot_of_node_.size()); }
  uint32_t slot_count() const { return uint32_t(node_of_slot_.size()); }
  uint32_t slot(uint32_t node) const { return slot_of_node_[node]; }
  uint32_t node(uint32_t slot) const { return node_of_slot_[slot]; }  // kPad for padding
  uint32_t colour_count() const { return colour_count_; }
  // Stored entries (padding included) per sweep over all of them: the cost of one pass.
  size_t stored_entries() const { return entry_link_.size(); }
  uint32_t slice_count() const { return uint32_t(slices_.size()); }  // the zero slice not counted
  uint32_t part_count() const { return parts_; }
  // The slices [first, last) holding part p of colour c's rows: colour by colour, part by part, they
  // tile [0, slice_count()) in ascending order. Empty for p >= part_count().
  std::array<uint32_t, 2> part_slices(uint32_t colour, uint32_t part) const {
    if (part >= parts_) return {0, 0};
    return {part_slice_[colour * parts_ + part], part_slice_[colour * parts_ + part + 1]};
  }
  // Calls f(first, last) for the slices of part p, joined where they follow each other (one part: one
  // call over them all), in ascending order.
  template <class F>
  void for_part_runs(uint32_t part, F f) const {
    uint32_t first = 0, last = 0;
    for (uint32_t c = 0; c < colour_count_; ++c) {
      const auto [a, b] = part_slices(c, part);
      if (a == b) continue;
      if (a != last) {
        if (first != last) f(first, last);
        first = a;
      }
      last = b;
    }
    if (first != last) f(first, last);
  }

  // The blocks for this step: diagonal per node, off-diagonal per link; fixed nodes' rows become zero
  // (their columns stay: a fixed node's value moves its neighbours' rows in multiply). O(entries).
  void fill(const Sym3* diag, const ScaledLinkBlocks& off, const uint8_t* fixed);
  // The same for the rows of slices [first, last) (by part: each thread writes the blocks it will read).
  void fill(const Sym3* diag, const ScaledLinkBlocks& off, const uint8_t* fixed, uint32_t first, uint32_t last);
  bool fixed_slot(uint32_t slot) const { return fixed_slot_[slot] != 0; }
  const float* free_mask() const { return free_mask_.data(); }  // per slot: 0 for fixed and padding, else 1

  // y = A x (x's ghost slots must hold its values: publish_ghosts).
  void multiply(const float* x, float* y) const;
  // r = b - A x (the same).
  void residual(const float* b, const float* x, float* r) const;
  // One block Gauss-Seidel sweep over the colours, ascending (forward) or descending; between parts,
  // from the values x had before the sweep.
  void sweep(const float* b, float* x, bool forward) const;
  // The forward sweep from x = 0 (x is written, not read; other parts' values read as 0), then
  // r = b - A x from the higher-colour and other-part neighbours alone (r may be null to skip it).
  void sweep_from_zero(const float* b, float* x, float* r) const;

  // The same passes over the rows of slices [first, last) only, for passes split by part. They read
  // the other parts' values from the ghost slots, as they are, and leave the zero slice
  // (slice_count(), the target of padding entries) alone: clear_zero_slice, once per vector.
  void multiply(const float* x, float* y, uint32_t first, uint32_t last) const;
  void sweep(const float* b, float* x, bool forward, uint32_t first, uint32_t last) const;
  // The sweep from x = 0 (reads only lower-colour neighbours of the same part), then r = b - A x after
  // it (reads only the others).
  void sweep_lower(const float* b, float* x, uint32_t first, uint32_t last) const;
  void upper_residual(const float* x, float* r, uint32_t first, uint32_t last) const;
  void clear_zero_slice(float* v) const;
  // Copies part p's values that other parts read into their ghost slots (all parts: the second form).
  void publish_ghosts(float* x, uint32_t part) const;
  void publish_ghosts(float* x) const;

  // Node-ordered vec3 values to slot-ordered records and back (padding slots get 0).
  void to_slots(const glm::vec3* nodes, float* slots) const;
  void from_slots(const float* slots, glm::vec3* nodes) const;

 private:
  struct Slice {
    uint32_t entry_begin;  // first entry row (8 lanes each) of this slice
    uint32_t lower;        // entry rows of lower-colour neighbours in the same part
    uint32_t cross;        // entry rows of other-part neighbours (ghost slots), after them
    uint32_t upper;        // entry rows of higher-colour neighbours in the same part, after those
  };
  enum class Pass { All, Lower, Upper };
  template <Pass pass>
  void accumulate(const Slice& s, const float* x, float out[3][kLanes]) const;
  void slice_sweep(uint32_t si, const float* b, float* x, Pass pass) const;

  std::vector<uint32_t> slot_of_node_, node_of_slot_;
  std::vector<Slice> slices_;
  uint32_t colour_count_ = 0;
  uint32_t parts_ = 1;
  std::vector<uint32_t> part_slice_;   // colour * parts + part -> its first slice (one past the end last)
  std::vector<std::vector<std::array<uint32_t, 2>>> publish_;  // per part: {its slot, a ghost slot}
  std::vector<uint32_t> entry_link_;   // per entry row and lane: the link, kPad for padding
  std::vector<uint32_t> entry_record_; // per entry row and lane: the neighbour's record offset (4 * slot)
  AlignedFloats entry_block_;          // per entry row: xx[8] xy[8] xz[8] yy[8] yz[8] zz[8]
  AlignedFloats diag_block_, diag_inverse_;  // per slice, same layout
  std::vector<uint8_t> fixed_slot_;
  std::vector<float> free_mask_;
};

// Slot-ordered vectors: 4 floats a slot, 32-byte aligned.
using SlotVector = AlignedFloats;

// Sum of term(k) over the floats k of slices [first, last) of a slot vector (32 floats a slice). Each
// slice sums in float, 8 lanes at a time; the slices add up in double. Fast (the loop vectorises
// without reassociating one sum: no -ffast-math here) and as accurate as the double sums the Krylov
// loops need.
template <class Term>
double slice_sum(uint32_t first, uint32_t last, Term term) {
  constexpr size_t kFloats = 4 * SlicedBlockMatrix::kLanes;
  double total = 0;
  for (size_t k = first * kFloats; k < last * kFloats; k += kFloats) {
    float lane[8] = {};
    for (size_t q = k; q < k + kFloats; q += 8)
      for (size_t j = 0; j < 8; ++j) lane[j] += term(q + j);
    total += double(((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7])));
  }
  return total;
}
inline double slice_dot(const float* a, const float* b, uint32_t first, uint32_t last) {
  return slice_sum(first, last, [&](size_t k) { return a[k] * b[k]; });
}

}  // namespace weft
