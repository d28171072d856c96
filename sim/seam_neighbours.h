#pragma once
// The features a seam joins, for self-collision: the two lips of a seam must meet, so the vertices of each
// seam pair (open or sewn) and the vertices beside them are treated as neighbours, like a shared corner.
// Without it self-collision held the lips a thickness (4 mm) apart while the seam pulled them to its sew gap
// (1 mm): the tool session on table.json never sewed (0 of 165 pairs, 72 mm open at the end) and the fight
// grew self-contacts from ~70 to 4.5k-84k a tick, 40-400 ms each, with 62 fail-safe speed clamps.
// Built when the seams change (a sew, an edit, a reset): it allocates; the per-tick test does not.
#include <array>
#include <cstdint>
#include <vector>

#include "sim/seam.h"
#include "sim/topology.h"

namespace weft {

class SeamNeighbours {
 public:
  // Vertex u is joined to w when a seam pair holds both on opposite sides, or one of them and a mesh
  // neighbour of the other (the triangles round a closed seam touch across it). Symmetric.
  void build(const Topology& topology, size_t nvert, size_t ntri, const std::vector<std::array<uint32_t, 3>>& triangle,
             const SeamSet& seams);
  void clear();
  bool empty() const { return list_.empty(); }
  // Whether a corner of one triangle is joined to a corner of the other: the pair gets no self-contact and
  // never counts as crossing (the lips pass over each other while they close).
  bool joined(uint32_t ta, uint32_t tb, const std::vector<std::array<uint32_t, 3>>& triangle) const {
    if (list_.empty() || !seam_triangle_[ta] || !seam_triangle_[tb]) return false;
    for (uint32_t u : triangle[ta])
      for (uint32_t i = start_[u]; i < start_[u + 1]; ++i) {
        const uint32_t w = list_[i];
        if (w == triangle[tb][0] || w == triangle[tb][1] || w == triangle[tb][2]) return true;
      }
    return false;
  }
  // The joined vertices of u (sorted).
  const uint32_t* begin(uint32_t u) const { return list_.data() + start_[u]; }
  const uint32_t* end(uint32_t u) const { return list_.data() + start_[u + 1]; }

 private:
  std::vector<uint32_t> start_;        // CSR over vertices (nvert + 1)
  std::vector<uint32_t> list_;         // joined vertices
  std::vector<uint8_t> seam_triangle_; // 1 if a corner has joined vertices (ntri)
};

}  // namespace weft
