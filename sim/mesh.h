#pragma once
// A triangle mesh as loaded or generated: rest positions, 2D material coordinates and triangles.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace weft {

struct Mesh {
  std::vector<glm::vec3> positions;  // rest (and initial) position per vertex (nvert), metres
  std::vector<glm::vec2> material;   // material coordinates per vertex (nvert), metres; u = weft, v = warp
  std::vector<std::array<uint32_t, 3>> triangles;  // vertex indices per triangle (ntri), counter-clockwise

  size_t vertex_count() const { return positions.size(); }
  size_t triangle_count() const { return triangles.size(); }
};

// Checks a mesh for what the simulator cannot take: no triangles, indices out of range, NaN/Inf
// coordinates, degenerate (zero-area) triangles, edges shared by more than two triangles.
// Returns an empty string when the mesh is usable, otherwise one line naming the problem.
std::string validate_mesh(const Mesh& mesh);

// Area of triangle t in rest (3D) positions.
float triangle_area(const Mesh& mesh, size_t t);

}  // namespace weft
