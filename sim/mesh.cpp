#include "sim/mesh.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <cstdint>
#include <vector>

namespace weft {

float triangle_area(const Mesh& mesh, size_t t) {
  const auto& tri = mesh.triangles[t];
  const glm::vec3 a = mesh.positions[tri[0]], b = mesh.positions[tri[1]], c = mesh.positions[tri[2]];
  return 0.5f * glm::length(glm::cross(b - a, c - a));
}

std::string validate_mesh(const Mesh& mesh) {
  std::ostringstream err;
  if (mesh.positions.empty()) return "mesh has no vertices";
  if (mesh.triangles.empty()) return "mesh has no triangles";
  if (mesh.material.size() != mesh.positions.size()) return "material coordinates do not match the vertex count";
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    const glm::vec3 p = mesh.positions[i];
    const glm::vec2 m = mesh.material[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) || !std::isfinite(m.x) ||
        !std::isfinite(m.y)) {
      err << "vertex " << i + 1 << " has a non-finite coordinate";
      return err.str();
    }
  }
  // Scale-aware degeneracy threshold: area below 1e-10 of the bounding box size squared.
  glm::vec3 lo = mesh.positions[0], hi = lo;
  for (const auto& p : mesh.positions) { lo = glm::min(lo, p); hi = glm::max(hi, p); }
  const float extent = glm::length(hi - lo);
  const float min_area = 1e-10f * extent * extent;
  // Uses per edge, each edge found again through a list per lower vertex (a few edges each): a hash map
  // keyed by the pair was a fifth of building a 16 k-vertex cloth model (World::edit rebuilds one).
  std::vector<uint32_t> first_edge(mesh.positions.size(), UINT32_MAX), next_edge, other_end, uses;
  next_edge.reserve(mesh.triangles.size() * 2);
  other_end.reserve(mesh.triangles.size() * 2);
  uses.reserve(mesh.triangles.size() * 2);
  for (size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    for (uint32_t v : tri) {
      if (v >= mesh.positions.size()) {
        err << "triangle " << t + 1 << " refers to vertex " << v + 1 << " but there are only "
            << mesh.positions.size();
        return err.str();
      }
    }
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] || !(triangle_area(mesh, t) > min_area)) {
      err << "triangle " << t + 1 << " is degenerate (zero area)";
      return err.str();
    }
    for (int k = 0; k < 3; ++k) {
      uint32_t a = tri[k], b = tri[(k + 1) % 3];
      if (a > b) std::swap(a, b);
      uint32_t e = first_edge[a];
      while (e != UINT32_MAX && other_end[e] != b) e = next_edge[e];
      if (e == UINT32_MAX) {
        e = uint32_t(uses.size());
        other_end.push_back(b);
        uses.push_back(0);
        next_edge.push_back(first_edge[a]);
        first_edge[a] = e;
      }
      if (++uses[e] > 2) {
        err << "edge " << a + 1 << "-" << b + 1 << " is shared by more than two triangles (non-manifold)";
        return err.str();
      }
    }
  }
  return {};
}

}  // namespace weft
