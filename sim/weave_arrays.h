#pragma once
// The weave triangles and hinges of a WeftWarpModel again as structs of arrays, for the vectorised passes
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

// Hinge corners and links; stiffness and rest angles stay WeftWarpModel's (and the state's, with plasticity).
struct WeaveHingeArrays {
  std::array<std::vector<uint32_t>, 4> corner;  // x0, x1, x2, x3 per hinge (nhinge each; see hinge_angle)
  std::array<std::vector<uint32_t>, 6> link;    // link of pairs (0,1) (0,2) (0,3) (1,2) (1,3) (2,3) (nhinge each)
};

WeaveHingeArrays make_weave_hinge_arrays(const std::vector<std::array<uint32_t, 4>>& hinge,
                                         const std::vector<std::array<uint32_t, 6>>& hinge_link);

}  // namespace weft
