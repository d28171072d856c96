#pragma once
// Cloth whose rest shape is folded (issue 34): irregular sheets (make_irregular, not grids) whose layers lie
// within the self-collision thickness of each other in the mesh as given, as users' garments come (collars,
// hems, pleats, a folded napkin mesh), for tests/engine/folded_rest_test.cpp and the bounds matrix.
#include <algorithm>
#include <array>
#include <cmath>

#include "sim/mesh_generators.h"

namespace weft::test {

enum class FoldedRest { Fold160, Hem, Pleat };
inline constexpr std::array<FoldedRest, 3> kFoldedRest = {FoldedRest::Fold160, FoldedRest::Hem, FoldedRest::Pleat};

inline const char* folded_rest_name(FoldedRest f) {
  switch (f) {
    case FoldedRest::Fold160: return "fold at 160 degrees";
    case FoldedRest::Hem: return "hem folded flat at 2 mm";
    case FoldedRest::Pleat: return "knife pleat at 2 mm";
  }
  return "?";
}

// The x of column c of make_irregular's sheet, its vertices there put on it (the jitter moved the interior ones):
// a fold along that column bends no triangle across it, so the folded mesh has no crossing triangles.
inline float snap_column(Mesh& mesh, uint32_t columns, uint32_t c) {
  const uint32_t nx = columns + 1;
  const float x = mesh.positions[c].x;  // row 0 is not jittered
  for (size_t i = c; i < mesh.positions.size(); i += nx) mesh.positions[i].x = mesh.material[i].x = x;
  return x;
}

// The folded sheet in its own frame: x along the sheet, y across it (both from 0), z up from its lowest layer
// (z = 0); the material coordinates are the flat sheet's.
inline Mesh folded_rest_flat(FoldedRest f) {
  constexpr float kGap = 0.002f;  // the hem's and the pleat's layers, m
  Mesh mesh;
  if (f == FoldedRest::Fold160) {
    // A 10 x 10 irregular 0.24 m sheet folded at 160 degrees about its middle column (docs/gpu.md's fold_160):
    // near the crease its layers lie within a 5 mm thickness; the upper half rises at 20 degrees over the lower.
    mesh = make_irregular({.width = 0.24f, .height = 0.24f, .columns = 10, .rows = 10, .grading = 1.5f, .seed = 5});
    const float hinge = snap_column(mesh, 10, 5), angle = 2.7925f;
    for (glm::vec3& p : mesh.positions) {
      const float d = std::max(p.x - hinge, 0.f);
      p = glm::vec3(std::min(p.x, hinge) + d * std::cos(angle), p.y, d * std::sin(angle));
    }
  } else if (f == FoldedRest::Hem) {
    // A 0.3 x 0.24 m sheet whose last 5-6 cm are turned under, flat, 2 mm below it (the fold's column between).
    mesh = make_irregular({.width = 0.3f, .height = 0.24f, .columns = 15, .rows = 12, .grading = 1.5f, .seed = 9});
    const float hinge = snap_column(mesh, 15, 12);
    for (glm::vec3& p : mesh.positions) {
      const float layer = p.x < hinge ? 1.f : (p.x > hinge ? 0.f : 0.5f);
      p = glm::vec3(p.x > hinge ? 2.f * hinge - p.x : p.x, p.y, layer * kGap);
    }
  } else {
    // A 0.36 x 0.24 m sheet with one knife pleat: at one column it turns back 2 mm below for 5-6 cm, at another
    // forward again 2 mm below that (three layers over the pleat's depth).
    mesh = make_irregular({.width = 0.36f, .height = 0.24f, .columns = 18, .rows = 12, .grading = 1.5f, .seed = 11});
    const float h1 = snap_column(mesh, 18, 8), h2 = snap_column(mesh, 18, 11);
    for (glm::vec3& p : mesh.positions) {
      float x = p.x, layer = 2.f;
      if (p.x > h2) x = h1 - (h2 - h1) + (p.x - h2), layer = 0.f;
      else if (p.x == h2) x = h1 - (h2 - h1), layer = 0.5f;
      else if (p.x > h1) x = h1 - (p.x - h1), layer = 1.f;
      else if (p.x == h1) layer = 1.5f;
      p = glm::vec3(x, p.y, layer * kGap);
    }
  }
  return mesh;
}

// Laid horizontal in the world (y up, as untuned_cloth.h's lay_flat turns a flat mesh), its lowest layer at
// height y, x and z round the origin.
inline Mesh folded_rest_mesh(FoldedRest f, float y) {
  Mesh mesh = folded_rest_flat(f);
  for (glm::vec3& p : mesh.positions) p = glm::vec3(p.x - 0.12f, y + p.z, 0.12f - p.y);
  return mesh;
}

}  // namespace weft::test
