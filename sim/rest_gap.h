#pragma once
// The rest gap of two cloth features: how far apart the rest shape holds them. A mesh whose rest shape is
// folded (a crease at 160 degrees, a hem or a pleat modelled as layers 2 mm apart, a folded napkin) has
// layers closer than the self-collision thickness where it is at rest. A contact that keeps them a thickness
// apart pushes them out every tick, the elastics pull them back, and the passive cloth climbs and walks
// (docs/self_collision.md, "Layers folded at rest"). Such a contact keeps them at their rest gap instead:
// its target distance is min(thickness, rest gap), so the rest shape satisfies every contact. The gap is
// that of the contact's two triangles (the closest of their features that do not share a vertex), not of its
// own two features: layers that slid a little along each other (a vertex now over the next triangle, which at
// rest lay beside it and farther than the thickness) keep their rest distance too. Only within one connected
// piece: the elastics join nothing across pieces, so two sheets modelled close together are kept a thickness
// apart as before (that costs no stretch, and pumps nothing).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/connected_pieces.h"

namespace weft {


// Whether triangles a and b (vertex indices into rest, the rest positions) may hold features closer than
// `thickness` at rest: their rest bounding boxes come within it (a cheap bound; the features' own gaps decide).
bool near_at_rest(const glm::vec3* rest, const std::array<uint32_t, 3>& a, const std::array<uint32_t, 3>& b,
                  float thickness);

// The rest distance from vertex v to triangle tri, m.
float rest_gap_vertex_triangle(const glm::vec3* rest, uint32_t v, const std::array<uint32_t, 3>& tri);

// The rest distance between edges (i0, i1) and (j0, j1), m.
float rest_gap_edge_edge(const glm::vec3* rest, uint32_t i0, uint32_t i1, uint32_t j0, uint32_t j1);

// The rest gap of triangles a and b: the smallest rest distance between a vertex of one and the other
// triangle, or an edge of one and an edge of the other, over the features that share no vertex, m (infinity
// when there are none).
float rest_gap_triangles(const glm::vec3* rest, const std::array<uint32_t, 3>& a, const std::array<uint32_t, 3>& b);

}  // namespace weft
