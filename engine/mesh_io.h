#pragma once
// Reading and writing cloth meshes as Wavefront OBJ (tinyobjloader). Material coordinates come from
// the file's `vt` entries when every vertex has one, else from the panel's two widest axes.
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/mesh.h"

namespace weft {

// Thrown for unreadable or unusable mesh files; what() names the file and the problem.
struct MeshFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A named set of line segments in a mesh file: a seam run drawn as edges (docs/scene_format.md, "Seam lines
// in the mesh file"). OBJ: the `l` elements of an `o` or `g` block (Blender writes an object's loose edges
// so); glTF: a primitive of mode LINES or LINE_STRIP, named by its node (or else its mesh). Positions are in
// the file's frame (glTF: node transforms applied), segment by segment in the file's order.
struct MeshLine {
  std::string name;
  std::vector<std::array<glm::vec3, 2>> segments;
};

// Thrown problems name the file and, where one line is at fault, the line: "path:line: problem".
// Loads and validates (sim/mesh.h validate_mesh: empty, NaN, degenerate, non-manifold, bad indices).
// `triangle_line` (optional) receives the 1-based line of the `f` entry each triangle came from; with
// validate false, a mesh the simulator would refuse (degenerate, non-manifold) is returned for `mesh --check`.
// `lines` (optional) receives the file's named lines; the vertices only lines use are not cloth vertices.
Mesh load_obj_mesh(const std::string& path, std::vector<uint32_t>* triangle_line = nullptr, bool validate = true,
                   std::vector<MeshLine>* lines = nullptr);

// Material coordinates from the two widest axes of the bounding box, for files without them.
void planar_material_coordinates(Mesh& mesh);

// Writes positions, material coordinates (as vt) and triangles; throws MeshFileError on I/O failure.
void save_obj_mesh(const Mesh& mesh, const std::string& path);

}  // namespace weft
