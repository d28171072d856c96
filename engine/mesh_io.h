#pragma once
// Reading and writing cloth meshes as Wavefront OBJ (tinyobjloader). Material coordinates come from
// the file's `vt` entries when every vertex has one, else from the panel's two widest axes.
#include <stdexcept>
#include <string>

#include "sim/mesh.h"

namespace weft {

// Thrown for unreadable or unusable mesh files; what() names the file and the problem.
struct MeshFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Loads and validates (sim/mesh.h validate_mesh: empty, NaN, degenerate, non-manifold, bad indices).
Mesh load_obj_mesh(const std::string& path);

// Writes positions, material coordinates (as vt) and triangles; throws MeshFileError on I/O failure.
void save_obj_mesh(const Mesh& mesh, const std::string& path);

}  // namespace weft
