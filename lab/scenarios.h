#pragma once
// Reference scenes shared by validate and bench: cloths hanging by two corners.
#include <vector>

#include "sim/cloth_model.h"
#include "sim/mesh_generators.h"

namespace weft::lab {

// A square cloth of side `size`, hanging in the vertical x-y plane or, when `horizontal`, lying flat at
// y = 1 (x-z plane); pinned at the two corners of one edge (the top edge, or the z = 0 edge when flat).
struct HangingCloth {
  Mesh mesh;
  std::vector<uint32_t> pins;
};
HangingCloth make_hanging_grid(uint32_t quads, float size, bool horizontal);

// Cotton-like material: 0.15 kg/m^2, stiff edge springs, soft bending springs, light damping.
Material cotton_material();

}  // namespace weft::lab
