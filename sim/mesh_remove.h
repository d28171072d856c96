#pragma once
// Removal of material inside a brush (Volino & Thalmann 1997 Fig. 5: the extra material cut off): the
// triangles whose centroid, where the cloth is now, lies inside the sphere go, and with them the vertices
// left on no triangle; the rest is compacted in its order.
#include <glm/glm.hpp>

#include "sim/mesh_edit.h"

namespace weft {

// Returns null and fills `out`, or a static string saying why nothing was removed: nothing inside the brush,
// or every triangle inside it (an empty cloth is refused: every stage expects at least one triangle).
const char* remove_in_brush(const Mesh& rest, const glm::vec3* x, const glm::vec3& centre, float radius, MeshEdit& out);

// Crumbs: after an edit, the pieces (connected through shared vertices) whose rest area is below min_area
// go too, as extra material no step can carry (a cut that leaves a corner of a triangle on its own gives
// a piece of a few square millimetres whose vertices weigh micrograms). Updates `edit` in place (its
// origins, parents and counts). Returns the triangles dropped; never drops every piece (the largest stays).
size_t drop_crumbs(MeshEdit& edit, float min_area);

}  // namespace weft
