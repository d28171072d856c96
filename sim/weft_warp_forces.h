#pragma once
// The weft/warp model's pass of evaluate_forces: triangle stresses (Volino & Thalmann 2005 Eq. 2-7)
// and anisotropic bending hinges, added onto the forces and the per-link Jacobian blocks the
// implicit solvers read. Called by force_field.cpp when the model has a WeftWarpModel.
#include <glm/glm.hpp>

#include "sim/cloth_model.h"
#include "sim/force_field.h"

namespace weft {

// Adds forces to out.force, and with options.jacobian the stiffness blocks to out.link_jacobian and
// out.jacobian_sum. When options.viscosity_h = h > 0 it also adds Kang & Cho's h J (v_j - v_i) term
// (Eq. 13) with the stiffness blocks and folds the viscous damping blocks D into the blocks as D / h,
// so the solvers' W = M - h^2 J holds M - h D - h^2 K. hinge_rest_angle (nhinge) overrides the model's
// rest angles (plasticity); null uses the model's. options.plastic_strain (ntri), when set, is subtracted from
// the triangles' strains before the stress curves (in-plane plasticity).
void add_weft_warp_forces(const ClothModel& model, const glm::vec3* x, const glm::vec3* v, ForceBuffers& out,
                          const ForceOptions& options);

// The weave triangles [begin, end) with the scalar kernel (weave_triangle): forces, and with
// options.jacobian the blocks as above. add_weft_warp_forces runs the vectorised pass (weft_warp_simd.h)
// first where it is compiled in, and this on the remaining triangles; tests compare the two.
void add_weave_triangles(const ClothModel& model, const glm::vec3* x, const glm::vec3* v, size_t begin, size_t end,
                         ForceBuffers& out, const ForceOptions& options);

// The hinges [begin, end) with the scalar kernel (hinge_angle), likewise.
void add_weave_hinges(const ClothModel& model, const glm::vec3* x, const glm::vec3* v, size_t begin, size_t end,
                      ForceBuffers& out, const ForceOptions& options);

// Elastic energy of the weave triangles and hinges, J; the plastic rest state when given (else the model's).
double weft_warp_energy(const ClothModel& model, const glm::vec3* x, const float* hinge_rest_angle = nullptr,
                        const std::array<float, 3>* plastic_strain = nullptr);

}  // namespace weft
