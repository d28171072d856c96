#pragma once
// A colouring of the vertex graph whose edges are the model's links (structural edges and bending
// pairs: every off-diagonal block of the implicit system). Vertices of one colour share no link, so a
// Gauss-Seidel sweep can update a whole colour at once from the others (Vertex Block Descent, Chen et
// al. 2024, section 4). Built once per mesh.
#include <cstdint>
#include <vector>

#include "sim/cloth_model.h"

namespace weft {

struct VertexColouring {
  std::vector<uint32_t> colour;         // colour per vertex (nvert)
  std::vector<uint32_t> colour_offset;  // vertices of colour c: order[colour_offset[c] .. colour_offset[c + 1]) (ncolour + 1)
  std::vector<uint32_t> order;          // vertices sorted by colour, ascending index within a colour (nvert)
  size_t colour_count() const { return colour_offset.empty() ? 0 : colour_offset.size() - 1; }
};

// Greedy colouring over the links, vertices visited in index order (smallest free colour first).
VertexColouring colour_vertices(size_t vertex_count, const std::vector<std::array<uint32_t, 2>>& links);

// Number of links whose two ends share a colour (0 for a valid colouring).
size_t colouring_conflicts(const VertexColouring& colouring, const std::vector<std::array<uint32_t, 2>>& links);

}  // namespace weft
