#pragma once
// A tangled cloth that is not a grid, for the load checks' tests: an irregular disc (make_annulus) folded
// flat in half onto itself, the right half mirrored about x = fold onto the left half in the same plane
// (z = 0), so the two layers' triangles overlap over the half disc with no gap between them.
#include <cmath>

#include "sim/mesh_generators.h"

namespace weft::test {

// gap > 0: the folded half lies that far above the other instead (the same mesh untangled).
inline Mesh folded_flat_disc(float radius = 0.2f, float edge = 0.03f, uint32_t rings = 6, float gap = 0.f) {
  Mesh mesh = make_annulus({.inner_radius = 0.f, .outer_radius = radius, .rings = rings, .edge = edge});
  const float fold = radius;  // the disc's centre line
  for (glm::vec3& p : mesh.positions)
    if (p.x > fold) p = glm::vec3(2.f * fold - p.x, p.y, gap);
  return mesh;
}

// The same disc twice, as two pieces: the second copy (vertices and triangles after the first's) turned by
// `turn` radians about the disc's centre in its plane, lying on the first (a duplicated layer).
inline Mesh doubled_disc(float radius = 0.2f, float edge = 0.03f, uint32_t rings = 6, float turn = 0.3f) {
  Mesh mesh = make_annulus({.inner_radius = 0.f, .outer_radius = radius, .rings = rings, .edge = edge});
  const size_t n = mesh.positions.size(), ntri = mesh.triangles.size();
  const float c = std::cos(turn), s = std::sin(turn);
  for (size_t i = 0; i < n; ++i) {
    const glm::vec3 d = mesh.positions[i] - glm::vec3(radius, radius, 0.f);
    mesh.positions.push_back(glm::vec3(radius + c * d.x - s * d.y, radius + s * d.x + c * d.y, 0.f));
    mesh.material.push_back(mesh.material[i]);
  }
  for (size_t t = 0; t < ntri; ++t) {
    const auto tri = mesh.triangles[t];
    mesh.triangles.push_back({tri[0] + uint32_t(n), tri[1] + uint32_t(n), tri[2] + uint32_t(n)});
  }
  return mesh;
}

}  // namespace weft::test
