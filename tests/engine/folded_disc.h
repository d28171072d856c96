#pragma once
// A tangled cloth that is not a grid, for the load checks' tests: an irregular disc (make_annulus) folded
// flat in half onto itself, the right half mirrored about x = fold onto the left half in the same plane
// (z = 0), so the two layers' triangles overlap over the half disc with no gap between them.
#include "sim/mesh_generators.h"

namespace weft::test {

inline Mesh folded_flat_disc(float radius = 0.2f, float edge = 0.03f, uint32_t rings = 6) {
  Mesh mesh = make_annulus({.inner_radius = 0.f, .outer_radius = radius, .rings = rings, .edge = edge});
  const float fold = radius;  // the disc's centre line
  for (glm::vec3& p : mesh.positions)
    if (p.x > fold) p.x = 2.f * fold - p.x;
  return mesh;
}

}  // namespace weft::test
