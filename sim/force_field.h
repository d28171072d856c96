#pragma once
// Assembles all cloth forces for one state: edge and bending springs or Volino triangles, relative
// damping, gravity and air. Produces the forces and, for the implicit solvers, the Jacobian blocks
// per link. Buffers are sized once per model; evaluation never allocates.
//
// Per-link results are kept as structs of arrays so the link pass vectorises (8 links per AVX2
// instruction); a second pass adds them onto the vertices (link_scatter.h).
#include <array>
#include <vector>

#include <glm/glm.hpp>

#include "sim/aligned_allocator.h"
#include "sim/cloth_model.h"
#include "sim/sym3.h"

namespace weft {

struct ForceBuffers {
  std::vector<glm::vec3> force;        // total force per vertex (nvert), N
  std::vector<Sym3> jacobian_sum;      // sum of J_ij over the links of each vertex, = -J_ii (nvert)
  std::vector<float> drag_coefficient; // linear air-drag coefficient per vertex (nvert), N s/m
  std::vector<glm::vec3> normal;       // unit vertex normal (nvert), only filled when air forces are on
  std::vector<float> tension;          // Volino edge tensions (edge_count), N; positive when stretched
  LinkBlocks link_jacobian;            // J_ij = df_i/dx_j per link, N/m
  static constexpr size_t kLinkBlock = 512;      // links per vectorised block
  std::vector<float> link_fx, link_fy, link_fz;  // force of each link of the current block on its first
                                                 // vertex (kLinkBlock), N
  AlignedFloats vertex_record;     // force and Jacobian sum per vertex while links are added (link_scatter.h)
  std::vector<float> vertex_record_zz;
  AlignedFloats vertex_xv;         // {x y z 0 vx vy vz 0} per vertex for the SIMD link pass (link_pass_simd.h)

  explicit ForceBuffers(const ClothModel& model);
};

struct ForceOptions {
  bool jacobian = true;    // fill link_jacobian and jacobian_sum
  float viscosity_h = 0;   // when > 0, add the viscosity term h J (v_j - v_i) of Kang & Cho Eq. 13
  const float* hinge_rest_angle = nullptr;  // weft/warp hinges' plastic rest angles (nhinge), rad; null: the model's
  const std::array<float, 3>* plastic_strain = nullptr;  // weave triangles' plastic strains (ntri); null: none
  const uint8_t* buckled = nullptr;  // structural links the corrections crushed (nedge; sim/buckled_links.h); null: none
};

// Evaluates forces at positions x and velocities v (both nvert long).
void evaluate_forces(const ClothModel& model, const glm::vec3* x, const glm::vec3* v, ForceBuffers& out,
                     const ForceOptions& options);

// Area-weighted unit vertex normals of the current positions.
void compute_vertex_normals(const ClothModel& model, const glm::vec3* x, glm::vec3* normal_out);

// Mechanical energies of a state, for stability checks.
struct Energy {
  double kinetic = 0;    // sum 1/2 m v^2, J
  double elastic = 0;    // sum 1/2 k (l - l0)^2 over links (for Volino edges: its axial stiffness), J;
                         // plus the weave triangles' and hinges' energy (model's rest angles)
  double gravity = 0;    // sum -m g.x, J
  double total() const { return kinetic + elastic + gravity; }
};
Energy compute_energy(const ClothModel& model, const glm::vec3* x, const glm::vec3* v);

}  // namespace weft
