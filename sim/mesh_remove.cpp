#include "sim/mesh_remove.h"

#include <cmath>
#include <numeric>

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

size_t drop_crumbs(MeshEdit& edit, float min_area) {
  Mesh& m = edit.mesh;
  const size_t n = m.vertex_count(), ntri = m.triangle_count();
  std::vector<uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  auto root = [&](uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (const auto& t : m.triangles) parent[root(t[0])] = root(t[1]), parent[root(t[1])] = root(t[2]);
  std::vector<double> area(n, 0.0);
  for (size_t t = 0; t < ntri; ++t) area[root(m.triangles[t][0])] += triangle_area(m, t);
  uint32_t largest = 0;
  for (uint32_t i = 0; i < n; ++i)
    if (area[i] > area[largest]) largest = i;
  std::vector<uint32_t> new_index(n, UINT32_MAX);
  std::vector<std::array<uint32_t, 3>> kept;
  std::vector<uint32_t> kept_parent;
  kept.reserve(ntri);
  kept_parent.reserve(ntri);
  for (size_t t = 0; t < ntri; ++t) {
    const uint32_t r = root(m.triangles[t][0]);
    if (r != root(largest) && area[r] < double(min_area)) continue;
    kept.push_back(m.triangles[t]);
    kept_parent.push_back(edit.triangle_parent[t]);
    for (uint32_t v : m.triangles[t]) new_index[v] = 0;
  }
  const size_t dropped = ntri - kept.size();
  if (dropped == 0) return 0;
  Mesh out;
  std::vector<VertexOrigin> origin;
  for (uint32_t i = 0; i < n; ++i) {
    if (new_index[i] == UINT32_MAX) continue;
    new_index[i] = uint32_t(origin.size());
    origin.push_back(edit.origin[i]);
    out.positions.push_back(m.positions[i]);
    out.material.push_back(m.material[i]);
  }
  for (auto& t : kept)
    for (uint32_t& v : t) v = new_index[v];
  out.triangles = std::move(kept);
  // counts against the mesh before the whole edit: before + added - removed = after
  edit.vertices_removed += uint32_t(n - origin.size());
  edit.triangles_removed += uint32_t(dropped);
  edit.mesh = std::move(out);
  edit.origin = std::move(origin);
  edit.triangle_parent = std::move(kept_parent);
  return dropped;
}

}  // namespace weft
