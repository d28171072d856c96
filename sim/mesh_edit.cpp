#include "sim/mesh_edit.h"

namespace weft {

std::vector<uint32_t> primary_copies(const MeshEdit& edit, size_t old_vertex_count) {
  std::vector<uint32_t> map(old_vertex_count, UINT32_MAX);
  for (uint32_t i = 0; i < edit.origin.size(); ++i) {
    const VertexOrigin& o = edit.origin[i];
    if (o.t == 0.f && o.a < old_vertex_count && map[o.a] == UINT32_MAX) map[o.a] = i;
  }
  return map;
}

}  // namespace weft
