#pragma once
// Broad phase for the mesh check: the pairs of axis-aligned boxes that overlap, through a uniform grid
// whose cell is the mean box size, so a mesh of n triangles costs about n times its triangles' neighbours
// instead of the n^2 / 2 pairs (a 16 k-vertex mesh: well under a second).
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace weft {

// Every pair (i < j) of boxes [lo, hi] (closed) that overlap, once each, sorted; boxes with use[i] == 0
// are left out. lo, hi, use: one entry per box.
std::vector<std::array<uint32_t, 2>> overlapping_boxes(const std::vector<glm::vec3>& lo,
                                                       const std::vector<glm::vec3>& hi,
                                                       const std::vector<uint8_t>& use);

}  // namespace weft
