#pragma once
// Two-level correction on the one coarse mode every link ignores, shared by the implicit solvers.
#include <glm/glm.hpp>

#include "sim/cloth_model.h"
#include "sim/cloth_state.h"
#include "sim/force_field.h"

namespace weft {

// For a cloth in free flight (no kinematic vertex): adds to every dv the uniform c with
// 1^T W (dv + c 1) = 1^T h f~. Each link cancels out of 1^T W (rows of W' sum to m_i + h c_drag), so
//   c = sum (h f~_i - (m_i + h c_i) dv_i) / sum (m_i + h c_i):
// the step then carries exactly the momentum the forces give, and an inexact solve (few Jacobi
// iterations, CG to a loose tolerance) no longer slows a falling or sliding cloth. With kinematic
// vertices the Galerkin correction includes their stiff links and was found to pump energy into a
// hanging cloth, while the plain solves keep hanging equilibria, so it does nothing then.
// Returns whether it applied.
bool correct_free_translation(const ClothModel& model, const ClothState& state, const ForceBuffers& forces, float h,
                              glm::vec3* dv);

}  // namespace weft
