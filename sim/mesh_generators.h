#pragma once
// Procedural cloth meshes. Both lie in the z = 0 plane with material coordinates equal to (x, y),
// corner at the origin; place them with transform_mesh.
#include <cstdint>

#include <glm/glm.hpp>

#include "sim/mesh.h"

namespace weft {

struct GridSpec {
  float width = 1.f;       // metres along x (weft)
  float height = 1.f;      // metres along y (warp)
  uint32_t columns = 20;   // quads along x
  uint32_t rows = 20;      // quads along y
  bool alternate_diagonals = true;  // flip the quad diagonal in a checkerboard, so no shear bias
};

// Regular grid: (columns + 1) x (rows + 1) vertices, 2 triangles per quad, row-major.
Mesh make_grid(const GridSpec& spec);

struct IrregularSpec {
  float width = 1.f;
  float height = 1.f;
  uint32_t columns = 20;
  uint32_t rows = 20;
  float grading = 2.f;   // ratio of the largest to the smallest column (and row) spacing
  float jitter = 0.3f;   // interior vertices move up to this fraction of the local spacing
  uint32_t seed = 1;     // fixes the jitter and the diagonal choice
};

// Irregular mesh: geometrically graded spacing, jittered interior vertices and randomly chosen
// quad diagonals, so triangle areas vary by well over 3x and no two neighbourhoods look alike.
Mesh make_irregular(const IrregularSpec& spec);

struct ConePanelSpec {
  IrregularSpec sheet;          // the panel's mesh: width = its arc at the bottom edge, height = its vertical extent
  float bottom_radius = 0.25f;  // the cone's radius at the panel's bottom edge (y = 0), m
  float top_radius = 0.14f;     // at its top edge (y = height), m
};

// A garment panel placed around a body as Volino 1997 Fig. 6 places them: an irregular sheet wrapped on a
// vertical cone about the y axis, centred on +z, spanning the angle width / bottom_radius. Its material
// coordinates are the cone developed flat (an annular sector), so the panel rests unstretched where it lies.
Mesh make_cone_panel(const ConePanelSpec& spec);

struct FoldedOverSpec {
  GridSpec grid;             // the flat sheet (columns even, so the fold lies on a column of vertices)
  float gap = 0.004f;        // height of the folded half above the lower one, m
  float amplitude = 0.01f;   // waviness of the folded half along y, m; above gap its troughs cross the lower
                             // half (a badly authored or folded-over garment), below it the layers only touch
  float waves = 2.f;         // wave periods along y
};

// A grid folded in half about x = width / 2 in the plane z = 0: the right half lies back over the left
// one at z = gap + amplitude sin(2 pi waves y / height), reaching that height one column from the fold.
// Material coordinates are the flat grid's, so the rest shape is the unfolded sheet.
Mesh make_folded_over(const FoldedOverSpec& spec);

struct AnnulusSpec {
  float inner_radius = 0.1f;  // m; 0 makes a disc (one centre vertex)
  float outer_radius = 0.4f;  // m
  uint32_t rings = 12;        // rings of triangles between the two radii
  float edge = 0.03f;         // target edge length along a ring, m: each ring gets its own vertex count
  float jitter = 0.25f;       // interior vertices move up to this fraction of the local spacing
  uint32_t seed = 1;          // fixes the jitter and each ring's phase
};

// A ring (or disc) of concentric vertex rings whose counts grow with the radius, zipped together with
// triangles: no row or column structure, vertices of valence 4 to 8, edges at every angle to the weave.
// Lies in z = 0 centred on (outer_radius, outer_radius), material coordinates = (x, y).
Mesh make_annulus(const AnnulusSpec& spec);

struct StripSpec {
  float length = 1.f;         // m along x (weft)
  float width = 0.2f;         // m along y (warp)
  float edge_start = 0.015f;  // target edge length at x = 0, m
  float edge_end = 0.045f;    // ... at x = length: the spacing grows geometrically between them
  float jitter = 0.25f;       // interior vertices move up to this fraction of the local spacing
  uint32_t seed = 1;          // fixes the jitter
};

// A non-uniform strip (a scarf): cross-sections at geometrically graded x, each with its own vertex count
// (its spacing's share of the width), zipped together like make_annulus's rings. Element size varies 3x
// along the strip and neighbouring cross-sections do not line up: no row or column structure. Lies in z = 0
// with its corner at the origin, material coordinates = (x, y).
Mesh make_strip(const StripSpec& spec);

// Applies an affine transform to positions (material coordinates are unchanged).
void transform_mesh(Mesh& mesh, const glm::mat4& transform);

}  // namespace weft
