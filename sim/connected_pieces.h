#pragma once
// The connected pieces of a mesh through shared vertices: the BVH keeps each piece under its own nodes, the
// self-contacts' rest gaps hold only within one piece (sim/rest_gap.h).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft {

// The connected piece of each vertex along the triangles (nvert): union-find, each piece named by one of its
// vertices.
std::vector<uint32_t> connected_pieces(size_t vertex_count, const std::vector<std::array<uint32_t, 3>>& triangles);

}  // namespace weft
