#pragma once
// Seam lines between cloth borders (Volino 1997 Fig. 5f-g and 6): a border run is the path along one border
// loop between two of its vertices; two runs are paired by arc length, so that runs with different vertex
// counts or lengths are sewn evenly: each vertex of one run is pulled toward the point at the same fraction
// of the other run's length, on an edge (barycentric), not only toward a vertex.
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/seam.h"
#include "sim/topology.h"

namespace weft {

// The border vertex nearest p (UINT32_MAX when the mesh has no border). `allowed` (optional, nvert) limits
// the search to the vertices marked 1 (one panel of a garment).
uint32_t nearest_border_vertex(const Topology& topology, const glm::vec3* x, size_t nvert, const glm::vec3& p,
                               const uint8_t* allowed = nullptr);

// The border path from vertex `from` to vertex `to`, both on one border loop: the shorter of the loop's two
// ways, measured in `rest`. Empty, with `refused` set to why (a static string), when either is not a border
// vertex, they are the same vertex or they lie on different borders.
std::vector<uint32_t> border_run(const Topology& topology, const glm::vec3* rest, uint32_t from, uint32_t to,
                                 const char** refused);

// The run that `edges` (vertex pairs, in any order and direction) form: one open path, starting at the end
// met first in the list's order (a strip listed edge after edge starts where it was drawn). Empty, with
// `refused` set to why (a static string), when there is no edge, an edge joins a vertex to itself, the
// edges branch at a vertex, close a loop, or fall in pieces.
std::vector<uint32_t> chain_edges(const std::vector<std::array<uint32_t, 2>>& edges, const char** refused);

// Adds the pairs that sew run a to run b, both in order (a[0] meets b[0], a.back() meets b.back()), paired by
// their arc lengths in `rest`: every vertex of a toward b's point at its fraction, every inner vertex of b
// not already met toward a's. Pairs of a vertex with itself (runs sharing a vertex) are left out. Returns the
// pairs added.
size_t pair_runs(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, const glm::vec3* rest, SeamSet& out);

}  // namespace weft
