#pragma once
// Reading and writing cloth meshes as glTF 2.0 (`.gltf` with its buffers, or binary `.glb`) through
// tinygltf, the format VR assets come in. A file's triangle primitives, in the default scene's node order
// with each node's transform applied, become one Mesh; TEXCOORD_0 gives the material coordinates (metres,
// as `weft mesh` writes them) when every primitive has it, else they come from the panel's two widest axes
// as for OBJ. Primitives of mode LINES or LINE_STRIP are named lines (seam runs drawn in the file, as
// Blender exports loose edges), not cloth.
#include <string>
#include <vector>

#include "engine/mesh_io.h"
#include "sim/mesh.h"

namespace weft {

// Loads and validates (sim/mesh.h validate_mesh). Throws MeshFileError "path: problem" for a file that
// does not parse, a missing buffer, a primitive that is neither triangles nor lines, an index or accessor out
// of range, a non-finite coordinate. `lines` (optional) receives the named lines (node transforms applied).
Mesh load_gltf_mesh(const std::string& path, std::vector<MeshLine>* lines = nullptr);

// Writes one mesh, one primitive (POSITION, TEXCOORD_0, 32-bit indices) with its buffer embedded
// (base64 in a `.gltf`, or a `.glb` when the path ends so); throws MeshFileError on I/O failure.
void save_gltf_mesh(const Mesh& mesh, const std::string& path);

// True when the path names a glTF file (.gltf or .glb, any case).
bool is_gltf_path(const std::string& path);

}  // namespace weft
