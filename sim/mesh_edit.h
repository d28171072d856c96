#pragma once
// The result of a topology edit of a rest mesh (sim/mesh_cut.h, sim/mesh_remove.h): the new mesh and where
// each of its vertices and triangles came from, so the world can carry its state and the model's
// vertex-indexed tables over (sim/world_edit.cpp).
#include <cstdint>
#include <vector>

#include "sim/mesh.h"

namespace weft {

// A new vertex is old vertex a moved a fraction t toward old vertex b (t = 0: a copy of a).
struct VertexOrigin {
  uint32_t a = 0, b = 0;
  float t = 0.f;
};

struct MeshEdit {
  Mesh mesh;                               // the rest mesh after the edit
  std::vector<VertexOrigin> origin;        // per new vertex (nvert')
  std::vector<uint32_t> triangle_parent;   // the old triangle each new one lies in (ntri')
  uint32_t vertices_added = 0, vertices_removed = 0, triangles_added = 0, triangles_removed = 0;
};

// Old vertex -> its first copy in the edited mesh, UINT32_MAX where it was removed (size old nvert).
// Copies are vertices with t = 0; the first is the one with the lowest index.
std::vector<uint32_t> primary_copies(const MeshEdit& edit, size_t old_vertex_count);

// An order of the old triangles (each once) carried through the edit: each old triangle replaced by the
// new ones that lie in it, in their index order; removed ones drop out. A permutation of the new triangles
// (the self-collision hierarchy's leaf order, rebuilt from it: bvh.h).
std::vector<uint32_t> carry_triangle_order(const MeshEdit& edit, const std::vector<uint32_t>& old_order);

}  // namespace weft
