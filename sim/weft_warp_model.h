#pragma once
// The baked, immutable part of the weft/warp model (Volino & Thalmann 2005 sec. 2.2.2) inside a
// ClothModel: the weave coefficients of every triangle (Eq. 2) and the anisotropic bending hinges.
// Empty unless the material's stretch model is WeftWarp.
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/crease_line.h"
#include "sim/material.h"
#include "sim/mesh.h"
#include "sim/topology.h"
#include "sim/weave_arrays.h"

namespace weft {

struct WeftWarpModel {
  // --- triangles (ntri; all of the model's triangles, same order)
  std::vector<std::array<float, 3>> ru;  // R_ua, R_ub, R_uc per triangle (Eq. 2), 1/m
  std::vector<std::array<float, 3>> rv;  // R_va, R_vb, R_vc per triangle, 1/m
  std::vector<float> area;               // rest area in weave coordinates per triangle, m^2
  std::vector<std::array<uint32_t, 3>> pair_link;  // link of the corner pairs (0,1), (1,2), (0,2) per triangle

  // --- hinges (nhinge: one per interior edge)
  std::vector<std::array<uint32_t, 4>> hinge;        // x0, x1 (the edge), x2, x3 (opposite; see hinge_angle)
  std::vector<std::array<uint32_t, 6>> hinge_link;   // link of pairs (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
  std::vector<float> hinge_stiffness;      // k = B(phi) 3 |e|^2 / (A1 + A2) (times a crease's scale): energy
                                           // 1/2 k (theta - theta0)^2, N m
  std::vector<float> hinge_rest_angle;     // theta0 from the material's rest curvature or a crease line, rad
  std::vector<float> curvature_per_angle;  // 3 |e| / (A1 + A2): curvature of a unit hinge angle, 1/m

  WeaveTriangleArrays arrays;     // the triangles above as structs of arrays, for the vectorised pass
  WeaveHingeArrays arrays_hinge;  // the hinges likewise

  size_t triangle_count() const { return area.size(); }
  size_t hinge_count() const { return hinge.size(); }
  bool active() const { return !area.empty(); }
};

// Bakes the model from the rest mesh (its positions give the metric, its material coordinates the weave
// direction and where the crease lines run). Throws std::invalid_argument for a triangle whose weave
// coordinates are degenerate, and for a crease line that is unusable or lies on no interior edge.
WeftWarpModel build_weft_warp_model(const Mesh& mesh, const Topology& topology, const WeaveMaterial& weave,
                                    const std::vector<CreaseLine>& creases = {});

}  // namespace weft
