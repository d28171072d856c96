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

// The longest a seam's run may be against the other's rest length: a longer one is clipped (gathers up to
// this ratio are sewn). 20 cm sewn onto 5 cm drove the long lip's vertices at 7.8 m/s and sewed 1 pair of 9
// (no self-collision; 2 of 9 with it), 7.5 cm onto 5 cm sewed 1 of 5 at 4.1 m/s, and 5.5 onto 5 all at the seam's
// 1 m/s cap: a lip gathered past the strain limit (10 %) is fought by the limiter.
constexpr float kMaxSeamGather = 1.1f;

// Clips `run` to its first `length` m of rest arc length (ending at the vertex nearest that length, at least
// two vertices kept); returns the rest length cut off (0: unchanged).
float clip_run(std::vector<uint32_t>& run, const glm::vec3* rest, float length);

// The rest arc length of a run, m.
float run_length(const std::vector<uint32_t>& run, const glm::vec3* rest);

// Runs that lay on one line at rest (the two lips of a cut): each vertex of one paired with the nearest point
// of the other's rest polyline, where that is within `tolerance` m, so the seam restores the cloth as it was
// (arc-length pairing of a cut's lips, 83 and 97 vertices with different notches and ends 1.5 cm apart, pulled
// pairs 6-17 mm sideways and never sewed). Returns the pairs added, 0 (nothing added) unless 90 % of the
// shorter run's vertices found their point (the others, at a notch of one lip, are left unpaired).
size_t pair_runs_at_rest(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, const glm::vec3* rest,
                         float tolerance, SeamSet& out);

// Adds the pairs that sew run a to run b, both in order (a[0] meets b[0], a.back() meets b.back()), paired by
// their arc lengths in `rest`: every vertex of a toward b's point at its fraction, every inner vertex of b
// not already met toward a's. Pairs of a vertex with itself (runs sharing a vertex) are left out. Returns the
// pairs added.
size_t pair_runs(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, const glm::vec3* rest, SeamSet& out);

}  // namespace weft
