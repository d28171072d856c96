#pragma once
// The vertices a cut made out of one (its lips' twins), for self-collision: a cut's two lips start where the
// uncut cloth was, so its twins are coincident (copies of an edge point) or a few mm apart (copies of a
// vertex, parted by World::edit), closer than the contact thickness with no side to push to. Their contacts
// folded the lips: on table.json's tool session the cut's tick 127 made 1329 self-contacts at once along
// the lips and left a fold the seam then fought (308-967 % strain). So each twin pair and the features beside
// it are neighbours, as a seam's are (sim/seam_neighbours.h), until the pair has parted by more than the
// contact thickness; from then on the lips are two borders like any other (a twin never comes back).
// Built at an edit (it allocates); the per-tick expiry does not.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/topology.h"

namespace weft {

class CutTwins {
 public:
  // twins: vertex pairs made out of one vertex or edge point. Vertex u is joined to w when a live pair holds
  // both, or one of them and a mesh neighbour of the other. Symmetric.
  void build(const Topology& topology, size_t nvert, size_t ntri, const std::vector<std::array<uint32_t, 3>>& triangle,
             const std::vector<std::array<uint32_t, 2>>& twins);
  void clear();
  // Retires the pairs farther apart than `apart` at x (nvert); returns how many. No allocation.
  size_t expire(const glm::vec3* x, float apart);
  // Every pair live again (a reset puts the cloth back at rest, where the lips lie on each other).
  void rearm() {
    std::fill(alive_.begin(), alive_.end(), uint8_t(1));
    live_ = pair_.size();
  }
  // The pairs still live (for the next edit to carry).
  std::vector<std::array<uint32_t, 2>> live() const;
  size_t live_count() const { return live_; }
  // Whether a corner of one triangle is joined to a corner of the other through a live pair.
  bool joined(uint32_t ta, uint32_t tb, const std::vector<std::array<uint32_t, 3>>& triangle) const {
    if (live_ == 0 || !twin_triangle_[ta] || !twin_triangle_[tb]) return false;
    for (uint32_t u : triangle[ta])
      for (uint32_t i = start_[u]; i < start_[u + 1]; ++i) {
        const uint32_t w = list_[i];
        if ((w == triangle[tb][0] || w == triangle[tb][1] || w == triangle[tb][2]) && alive_[via_[i]]) return true;
      }
    return false;
  }

 private:
  std::vector<std::array<uint32_t, 2>> pair_;  // the twin pairs
  std::vector<uint8_t> alive_;                 // 1 while the pair has not parted past `apart` (npair)
  size_t live_ = 0;                            // nonzero entries of alive_
  std::vector<uint32_t> start_;                // CSR over vertices (nvert + 1)
  std::vector<uint32_t> list_;                 // joined vertices
  std::vector<uint32_t> via_;                  // the pair each join comes from (list_'s size)
  std::vector<uint8_t> twin_triangle_;         // 1 if a corner has joined vertices (ntri)
};

}  // namespace weft
