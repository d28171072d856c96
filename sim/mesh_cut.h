#pragma once
// A cut along a blade segment (Volino & Thalmann 1997 Fig. 5c): where the cloth surface crosses the plane
// through the segment and the cloth's normal near it, within `radius` of the segment, the triangles crossed
// are split (a new vertex where the path crosses an edge, or the path snapped onto a vertex when the
// crossing lies within kCutSnap of it, so no sliver is made), then the vertices along the path are
// duplicated so that the triangles on either side no longer share them: the cloth opens. The path's ends
// stay joined unless they reach the border, so consecutive segments of a stroke continue one cut.
#include <glm/glm.hpp>

#include "sim/mesh_edit.h"
#include "sim/topology.h"

namespace weft {

// A crossing this close to an edge's end (a fraction of the edge) moves onto the vertex instead.
inline constexpr float kCutSnap = 0.15f;
// A piece of a split triangle below this quality (4 sqrt(3) A / sum of squared edges: 1 equilateral, 0
// degenerate; twice `weft mesh --check`'s sliver bound) moves its crossings onto their nearer vertices,
// at most kCutResplits times (then the cut is refused).
inline constexpr float kCutMinQuality = 0.1f;
inline constexpr int kCutResplits = 4;

// Cuts `rest` (a valid mesh, `topology` its build_topology) whose vertices are now at x (nvert). Returns
// null and fills `out`, or a static string saying why nothing was cut (out then unspecified).
const char* cut_mesh(const Mesh& rest, const Topology& topology, const glm::vec3* x, const glm::vec3& from, const glm::vec3& to, float radius,
                     MeshEdit& out);

}  // namespace weft
