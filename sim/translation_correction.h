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
// hanging cloth, while the plain solves keep hanging equilibria, so it does nothing then. The last step's
// collider contacts (state.contact_axes): where static friction stopped a vertex, the cloth has no free
// tangential translation (a stuck vertex holds it like a pin), so c keeps only its components along the
// contact normals, the share of h g the solve missed (0.01 m/s a tick with k = 3), which the free
// wrinkles need and the collider takes back from the vertices lying on it. Measured, a cloth dropped on a
// table (`weft validate grasp --solver approx`): the whole c pushed a spurious tangential drift into the
// wrinkles every tick and the cloth never came to rest; no c (or none along the normal) left the folds
// feeling 3/4 of gravity and they stood up to 0.36 m. Sliding contacts keep the whole c: a cloth sliding
// down a slope slides at g (sin - mu cos).
// Returns whether it applied.
bool correct_free_translation(const ClothModel& model, const ClothState& state, const ForceBuffers& forces, float h,
                              glm::vec3* dv);

}  // namespace weft
