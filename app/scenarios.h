#pragma once
// Reference scenes shared by validate and bench: cloths hanging by two corners.
#include <vector>

#include "sim/cloth_model.h"
#include "sim/mesh_generators.h"

namespace weft::app {

// A square cloth of side `size` in the vertical x-y plane... or horizontal (x-z) when `horizontal`,
// pinned at the two corners of its top edge (y max for vertical, z min for horizontal).
struct HangingCloth {
  Mesh mesh;
  std::vector<uint32_t> pins;
};
HangingCloth make_hanging_grid(uint32_t quads, float size, bool horizontal);

// Cotton-like material: 0.15 kg/m^2, stiff edge springs, soft bending springs, light damping.
Material cotton_material();

}  // namespace weft::app
