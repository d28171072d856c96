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

std::vector<uint32_t> carry_triangle_order(const MeshEdit& edit, const std::vector<uint32_t>& old_order) {
  // The new triangles bucketed by their old one (counting sort, index order within a bucket).
  std::vector<uint32_t> start(old_order.size() + 1, 0);
  for (uint32_t p : edit.triangle_parent)
    if (p < old_order.size()) ++start[p + 1];
  for (size_t t = 0; t < old_order.size(); ++t) start[t + 1] += start[t];
  std::vector<uint32_t> bucket(start.back()), fill(start.begin(), start.end() - 1);
  for (uint32_t t = 0; t < edit.triangle_parent.size(); ++t)
    if (edit.triangle_parent[t] < old_order.size()) bucket[fill[edit.triangle_parent[t]]++] = t;
  std::vector<uint32_t> order;
  order.reserve(edit.triangle_parent.size());
  for (uint32_t old : old_order)
    if (old < old_order.size()) order.insert(order.end(), bucket.begin() + start[old], bucket.begin() + start[old + 1]);
  return order;
}

}  // namespace weft
