#pragma once
// Crease lines (issue 17, Build 1): segments drawn in the mesh's material (u, v) coordinates along which
// the weft/warp bending hinges get a rest fold angle and, optionally, a scaled bending stiffness: a
// pressed pleat, a napkin's fold, a collar's roll line. Mapped onto the hinges once, when the model is
// built (build_weft_warp_model); plasticity then treats the crease angle as the hinge's original shape.
#include <cstddef>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "sim/mesh.h"
#include "sim/topology.h"

namespace weft {

struct CreaseLine {
  glm::vec2 from{0.f}, to{0.f};  // segment ends in material coordinates (Mesh::material), m
  float rest_angle_deg = 0;      // rest fold angle, degrees in (-180, 180); positive folds the two sides
                                 // toward the side the triangle normals face (hinge_angle's sign)
  float stiffness_scale = 1;     // multiplies the bending stiffness of the hinges on the line (>= 0)
  float tolerance = 1e-3f;       // m: an edge is on the line when both its ends are this close to the segment
};

// Whether the edge with material coordinates a, b lies on the crease segment (within its tolerance).
bool edge_on_crease(const CreaseLine& line, const glm::vec2& a, const glm::vec2& b);

// Number of interior edges (two triangles: those that carry a hinge) lying on the line; for loaders'
// checks before the model is built.
size_t crease_interior_edge_count(const CreaseLine& line, const Mesh& mesh, const Topology& topology);

// Checks a line's numbers; empty when usable.
std::string validate_crease_line(const CreaseLine& line);

}  // namespace weft
