#include "lab/static_equilibrium.h"

#include <algorithm>

namespace weft::lab {

EquilibriumResult solve_static_equilibrium(const ClothModel& model, ClothState& state, ForceBuffers& forces,
                                           BlockSystem& system, const EquilibriumOptions& o,
                                           std::vector<glm::vec3>& dx) {
  const size_t n = model.vertex_count();
  dx.resize(n);
  std::fill(state.velocity.begin(), state.velocity.end(), glm::vec3(0.f));
  const uint8_t* fixed = state.kinematic.data();
  EquilibriumResult r;
  for (;; ++r.newton_iterations) {
    evaluate_forces(model, state.position.data(), state.velocity.data(), forces,
                    {.jacobian = true, .hinge_rest_angle = plastic_rest_angles(state), .plastic_strain = plastic_strains(state)});
    r.max_free_force = 0.f;
    for (size_t i = 0; i < n; ++i)
      if (!fixed[i]) r.max_free_force = std::max(r.max_free_force, glm::length(forces.force[i]));
    r.converged = r.max_free_force <= o.tolerance * o.force_scale;
    if (r.converged || r.newton_iterations >= o.max_newton) break;
    std::fill(dx.begin(), dx.end(), glm::vec3(0.f));
    system.solve(model, forces, fixed, {.mass = o.regularisation, .damping = 0.f, .jacobian = 1.f}, forces.force.data(),
                 dx.data(), o.cg_tolerance, o.cg_max_iterations);
    for (size_t i = 0; i < n; ++i)
      if (!fixed[i]) state.position[i] += dx[i];
  }
  return r;
}

}  // namespace weft::lab
