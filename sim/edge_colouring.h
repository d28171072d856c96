#pragma once
// A colouring of the structural edges: edges of one colour share no vertex, so the strain limiter's
// corrections of a whole colour can run at once (the GPU step's limiter, gpu/shaders/strain_sweep.comp),
// a Gauss-Seidel sweep colour after colour in place of the CPU's edge after edge. Built once per mesh.
#include <cstdint>
#include <vector>

#include "sim/cloth_model.h"

namespace weft {

struct EdgeColouring {
  std::vector<uint32_t> colour_offset;  // edges of colour c: order[colour_offset[c] .. colour_offset[c + 1]) (ncolour + 1)
  std::vector<uint32_t> order;          // structural edges sorted by colour, ascending index within a colour (nedge)
  size_t colour_count() const { return colour_offset.empty() ? 0 : colour_offset.size() - 1; }
};

// Greedy colouring of model.link[0 .. edge_count), edges visited in index order (smallest colour free at
// both ends first): at most 2 d - 1 colours for a largest vertex degree d.
EdgeColouring colour_edges(const ClothModel& model);

// Number of vertices that two edges of one colour share (0 for a valid colouring).
size_t edge_colouring_conflicts(const ClothModel& model, const EdgeColouring& colouring);

}  // namespace weft
