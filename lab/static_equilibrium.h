#pragma once
// Static equilibrium by Newton iterations on the force, for material experiments (the virtual tensile
// test of Volino & Thalmann 2005 sec. 2.2.3): each iteration solves (c M - J) dx = f with the
// evaluate_forces Jacobian (BlockSystem), fixed vertices held where they are. c is a small
// regularisation (1/s^2) that keeps the system definite where the sheet has no stiffness.
#include "sim/block_system.h"
#include "sim/cloth_state.h"

namespace weft::lab {

struct EquilibriumOptions {
  float tolerance = 1e-6f;   // stop when max |f| on free vertices <= tolerance x force_scale
  float force_scale = 1.f;   // N: what the tolerance is relative to
  int max_newton = 60;
  float regularisation = 1.f;  // c, 1/s^2
  float cg_tolerance = 1e-6f;
  int cg_max_iterations = 2000;
};

struct EquilibriumResult {
  int newton_iterations = 0;
  float max_free_force = 0;  // N, at the end
  bool converged = false;
};

// Moves the free vertices of state (kinematic ones are fixed) to equilibrium; velocities are zeroed.
EquilibriumResult solve_static_equilibrium(const ClothModel& model, ClothState& state, ForceBuffers& forces,
                                           BlockSystem& system, const EquilibriumOptions& options,
                                           std::vector<glm::vec3>& scratch_dx);

}  // namespace weft::lab
