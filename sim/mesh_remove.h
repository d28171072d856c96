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

}  // namespace weft
