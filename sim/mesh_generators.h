#pragma once
// Procedural cloth meshes. Both lie in the z = 0 plane with material coordinates equal to (x, y),
// corner at the origin; place them with transform_mesh.
#include <cstdint>

#include <glm/glm.hpp>

#include "sim/mesh.h"

namespace weft {

struct GridSpec {
  float width = 1.f;       // metres along x (weft)
  float height = 1.f;      // metres along y (warp)
  uint32_t columns = 20;   // quads along x
  uint32_t rows = 20;      // quads along y
  bool alternate_diagonals = true;  // flip the quad diagonal in a checkerboard, so no shear bias
};

// Regular grid: (columns + 1) x (rows + 1) vertices, 2 triangles per quad, row-major.
Mesh make_grid(const GridSpec& spec);

struct IrregularSpec {
  float width = 1.f;
  float height = 1.f;
  uint32_t columns = 20;
  uint32_t rows = 20;
  float grading = 2.f;   // ratio of the largest to the smallest column (and row) spacing
  float jitter = 0.3f;   // interior vertices move up to this fraction of the local spacing
  uint32_t seed = 1;     // fixes the jitter and the diagonal choice
};

// Irregular mesh: geometrically graded spacing, jittered interior vertices and randomly chosen
// quad diagonals, so triangle areas vary by well over 3x and no two neighbourhoods look alike.
Mesh make_irregular(const IrregularSpec& spec);

// Applies an affine transform to positions (material coordinates are unchanged).
void transform_mesh(Mesh& mesh, const glm::mat4& transform);

}  // namespace weft
