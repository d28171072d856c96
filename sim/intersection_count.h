#pragma once
// Exact count of the cloth's self-intersections (Volino 1995 section 4.2, "interferences": edges
// crossing triangles). Two pieces of surface cross only if an edge of one crosses a triangle of the
// other, so a state with zero edge-triangle crossings is free of self-intersection. Used by the
// validation and the tests; allocates, so it is not for the per-tick path.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/bvh.h"
#include "sim/cloth_model.h"

namespace weft {

struct IntersectionCount {
  uint64_t edge_triangle = 0;   // (edge, triangle) pairs, edge not touching the triangle, that cross
  uint64_t triangle_pairs = 0;  // distinct pairs of triangles that cross each other
};

// Counts crossings of the positions (nvert) of the model's mesh; every triangle pair with overlapping
// bounds is tested (no curvature culling), with the sign predicates of sim/collision_geometry.h.
IntersectionCount count_self_intersections(const ClothModel& model, const std::vector<glm::vec3>& positions);

// Same, reusing a tree built for the model (refitted here).
IntersectionCount count_self_intersections(const ClothModel& model, const std::vector<glm::vec3>& positions,
                                           TriangleBvh& bvh, std::vector<TrianglePair>& scratch);

}  // namespace weft
