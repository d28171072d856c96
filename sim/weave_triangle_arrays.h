#pragma once
// The weave triangles of a WeftWarpModel again as structs of arrays, for the vectorised pass
// (weft_warp_simd.h): one array per corner and per coefficient, so 8 triangles load with one instruction
// each, and the material's three curves as tables (curve_table.h). Baked with the model, immutable.
#include <array>
#include <cstdint>
#include <vector>

#include "sim/curve_table.h"
#include "sim/weave_material.h"

namespace weft {

struct WeaveTriangleArrays {
  std::array<std::vector<uint32_t>, 3> corner;     // vertex of corner k per triangle (ntri each)
  std::array<std::vector<float>, 3> ru, rv;        // R_u, R_v of corner k per triangle (Eq. 2; ntri each), 1/m
  std::array<std::vector<uint32_t>, 3> pair_link;  // link of the corner pairs (0,1), (1,2), (0,2) (ntri each)
  std::array<CurveTable, 3> curve;                 // weft, warp, shear
};

// From the AoS fields of the model (same triangle order); area stays WeftWarpModel::area.
WeaveTriangleArrays make_weave_triangle_arrays(const std::vector<std::array<uint32_t, 3>>& triangles,
                                               const std::vector<std::array<float, 3>>& ru,
                                               const std::vector<std::array<float, 3>>& rv,
                                               const std::vector<std::array<uint32_t, 3>>& pair_link,
                                               const WeaveMaterial& weave);

}  // namespace weft
