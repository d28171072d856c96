#pragma once
// Material and environment parameters of one cloth. Plain data; ClothModel bakes them into
// per-link and per-triangle coefficients.
#include <glm/glm.hpp>

#include "sim/weave_material.h"

namespace weft {

enum class StretchModel {
  Springs,  // linear springs along the mesh edges (Kang & Cho Eq. 1)
  Volino,   // Volino-Thalmann elastic triangles (1997 Annex Eq. 1, 4-11)
  WeftWarp, // weft/warp nonlinear anisotropic triangles and bending hinges (Volino-Thalmann 2005 sec. 2)
};

// How a spring stiffness value turns into a per-link spring constant.
enum class StiffnessScale {
  PerRestLength,  // k = value / l0  (Kang & Cho section 7 use 0.03 / l0)
  Absolute,       // k = value, N/m
};

struct Material {
  float areal_density = 0.15f;  // kg/m^2; lumped vertex masses are area x density / 3 per triangle
  float total_mass = 0.f;       // kg; when > 0 it overrides areal_density (density = mass / area)

  StretchModel stretch_model = StretchModel::Springs;
  StiffnessScale stiffness_scale = StiffnessScale::PerRestLength;
  float stretch_stiffness = 500.f;  // edge springs: N (PerRestLength) or N/m (Absolute)
  float bend_stiffness = 5.f;       // springs across interior edges, same scale as stretch
  float young_modulus = 500.f;      // Volino model: surface Young modulus, N/m
  float alpha = 1.f;                // Volino alpha in [0, 1.2]: 0 = spring-mass, 1 = zero Poisson ratio
  bool volino_general_mass = false; // Volino Eq. 7 (per-vertex masses) instead of Eq. 10 (equal masses)
  float volino_min_determinant = 0.05f;  // below it a triangle falls back to springs (force_kernels.h)
  WeaveMaterial weave;              // WeftWarp model: curves, viscosities, bending, plasticity

  float damping = 0.01f;  // relative-velocity damping C_d per link, N s/m (Kang Eq. 26)
  float drag = 0.f;       // air drag K_D per unit vertex area, kg/m^3 (Kang Eq. 31)
  float lift = 0.f;       // air lift K_L per unit vertex area, kg/m^3 (Kang Eq. 34)
  glm::vec3 wind{0.f};    // air velocity, m/s
  glm::vec3 gravity{0.f, -9.81f, 0.f};  // m/s^2
};

}  // namespace weft
