#pragma once
// Topology derived from a triangle mesh: unique edges, the bending pairs across interior edges and
// the boundary. Built once; the solver reads it through ClothModel.
#include <array>
#include <cstdint>
#include <vector>

#include "sim/mesh.h"

namespace weft {

struct Topology {
  std::vector<std::array<uint32_t, 2>> edges;          // vertex pair per unique edge (nedge), first < second
  std::vector<std::array<int32_t, 2>> edge_triangles;  // adjacent triangles per edge (nedge), -1 if none
  std::vector<std::array<uint32_t, 3>> triangle_edges; // edge index opposite each triangle corner (ntri)
  std::vector<std::array<uint32_t, 2>> bend_pairs;     // opposite vertices across each interior edge (nbend)
  std::vector<uint32_t> bend_edge;                     // the interior edge each bend pair straddles (nbend)
  std::vector<uint8_t> boundary_vertex;                // 1 if the vertex lies on a boundary edge (nvert)
  std::vector<uint8_t> boundary_edge;                  // 1 if the edge has one triangle only (nedge)
};

// Requires a mesh that passed validate_mesh.
Topology build_topology(const Mesh& mesh);

}  // namespace weft
