#include "sim/topology.h"

#include <algorithm>
#include <cstdint>

namespace weft {

Topology build_topology(const Mesh& mesh) {
  Topology topo;
  const size_t ntri = mesh.triangles.size();
  topo.triangle_edges.resize(ntri);
  // Each edge found again through a list per lower vertex (its edges so far, a few): the same numbering as a
  // hash map keyed by the pair, at a fifth of its time (the hash map was 2 of a 16 k-vertex edit's rebuild ms).
  std::vector<uint32_t> first_edge(mesh.positions.size(), UINT32_MAX), next_edge;
  next_edge.reserve(ntri * 2);
  topo.edges.reserve(ntri * 2);
  topo.edge_triangles.reserve(ntri * 2);
  for (size_t t = 0; t < ntri; ++t) {
    const auto& tri = mesh.triangles[t];
    for (int k = 0; k < 3; ++k) {
      // the edge opposite corner k joins the two other corners
      uint32_t a = tri[(k + 1) % 3], b = tri[(k + 2) % 3];
      if (a > b) std::swap(a, b);
      if (a >= first_edge.size()) first_edge.resize(size_t(a) + 1, UINT32_MAX);  // a mesh not yet validated
      uint32_t e = first_edge[a];
      while (e != UINT32_MAX && topo.edges[e][1] != b) e = next_edge[e];
      if (e == UINT32_MAX) {
        e = uint32_t(topo.edges.size());
        topo.edges.push_back({a, b});
        topo.edge_triangles.push_back({int32_t(t), -1});
        next_edge.push_back(first_edge[a]);
        first_edge[a] = e;
      } else {
        topo.edge_triangles[e][1] = int32_t(t);
      }
      topo.triangle_edges[t][k] = e;
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
