#include "sim/mesh_remove.h"

#include <cmath>

namespace weft {

const char* remove_in_brush(const Mesh& rest, const glm::vec3* x, const glm::vec3& centre, float radius, MeshEdit& out) {
  if (!(radius > 0.f) || !std::isfinite(radius)) return "the brush radius must be positive";
  const size_t n = rest.vertex_count(), ntri = rest.triangle_count();
  out = MeshEdit{};
  std::vector<uint32_t> new_index(n, UINT32_MAX);
  for (uint32_t t = 0; t < ntri; ++t) {
    const auto& tri = rest.triangles[t];
    const glm::vec3 c = (x[tri[0]] + x[tri[1]] + x[tri[2]]) / 3.f;
    if (glm::length(c - centre) <= radius) continue;
    out.triangle_parent.push_back(t);
    for (uint32_t v : tri) new_index[v] = 0;  // used
  }
  if (out.triangle_parent.size() == ntri) return "nothing inside the brush";
  if (out.triangle_parent.empty()) return "would remove the whole cloth";
  for (uint32_t i = 0; i < n; ++i) {
    if (new_index[i] == UINT32_MAX) continue;
    new_index[i] = uint32_t(out.origin.size());
    out.origin.push_back({i, i, 0.f});
    out.mesh.positions.push_back(rest.positions[i]);
    out.mesh.material.push_back(rest.material[i]);
  }
  out.mesh.triangles.reserve(out.triangle_parent.size());
  for (uint32_t t : out.triangle_parent) {
    const auto& tri = rest.triangles[t];
    out.mesh.triangles.push_back({new_index[tri[0]], new_index[tri[1]], new_index[tri[2]]});
  }
  out.vertices_removed = uint32_t(n - out.origin.size());
  out.triangles_removed = uint32_t(ntri - out.triangle_parent.size());
  return nullptr;
}

}  // namespace weft
