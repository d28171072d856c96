#include "sim/topology.h"

#include <algorithm>
#include <unordered_map>

namespace weft {

Topology build_topology(const Mesh& mesh) {
  Topology topo;
  const size_t ntri = mesh.triangles.size();
  topo.triangle_edges.resize(ntri);
  std::unordered_map<uint64_t, uint32_t> edge_index;
  edge_index.reserve(ntri * 2);
  for (size_t t = 0; t < ntri; ++t) {
    const auto& tri = mesh.triangles[t];
    for (int k = 0; k < 3; ++k) {
      // the edge opposite corner k joins the two other corners
      uint32_t a = tri[(k + 1) % 3], b = tri[(k + 2) % 3];
      if (a > b) std::swap(a, b);
      const uint64_t key = (uint64_t(a) << 32) | b;
      auto [it, inserted] = edge_index.try_emplace(key, uint32_t(topo.edges.size()));
      if (inserted) {
        topo.edges.push_back({a, b});
        topo.edge_triangles.push_back({int32_t(t), -1});
      } else {
        topo.edge_triangles[it->second][1] = int32_t(t);
      }
      topo.triangle_edges[t][k] = it->second;
    }
  }
  // Sort-free but cache-friendly enough: edges appear in triangle order, and generators emit
  // triangles row by row.
  topo.boundary_vertex.assign(mesh.positions.size(), 0);
  topo.boundary_edge.assign(topo.edges.size(), 0);
  for (size_t e = 0; e < topo.edges.size(); ++e) {
    const auto [t0, t1] = topo.edge_triangles[e];
    if (t1 < 0) {
      topo.boundary_edge[e] = 1;
      topo.boundary_vertex[topo.edges[e][0]] = 1;
      topo.boundary_vertex[topo.edges[e][1]] = 1;
      continue;
    }
    auto opposite = [&](int32_t t) {
      const auto& tri = mesh.triangles[size_t(t)];
      for (uint32_t v : tri)
        if (v != topo.edges[e][0] && v != topo.edges[e][1]) return v;
      return tri[0];
    };
    uint32_t a = opposite(t0), b = opposite(t1);
    if (a > b) std::swap(a, b);
    topo.bend_pairs.push_back({a, b});
    topo.bend_edge.push_back(uint32_t(e));
  }
  return topo;
}

}  // namespace weft
