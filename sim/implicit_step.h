#pragma once
// Pieces every linearised implicit solver (approx, cg, gs, mg) shares: the dot product its Krylov loops
// accumulate in double, and the end of the step, Kang & Cho Eq. 14-15's update v += dv, x += h v,
// after the optional free-flight translation correction. A solver that keeps ClothState::contact_filter's
// contacts (Integrator::filters_contacts) imposes them in its iterations; for the others it is empty.
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth_state.h"
#include "sim/force_field.h"
#include "sim/translation_correction.h"

namespace weft {

inline double dot(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += double(a[i].x) * b[i].x + double(a[i].y) * b[i].y + double(a[i].z) * b[i].z;
  return s;
}

// W_ii = M_i - h^2 J_ii + h (n_i C_d + c_drag) I (Kang & Cho Eq. 18 and 27; J_ii = -sum_j J_ij).
inline Sym3 implicit_diagonal(const ClothModel& model, const ForceBuffers& forces, float h, size_t i) {
  Sym3 W = (h * h) * forces.jacobian_sum[i];
  W.add_diagonal(model.mass[i] + h * (float(model.link_count[i]) * model.material.damping + forces.drag_coefficient[i]));
  return W;
}

// B_l = h^2 J_l + h C_d I, the coupling of link l's two vertices: W_ij = -B_l.
inline Sym3 implicit_coupling(const ClothModel& model, const ForceBuffers& forces, float h, size_t l) {
  Sym3 B = (h * h) * forces.link_jacobian.get(l);
  B.add_diagonal(h * model.material.damping);
  return B;
}

// Applies the solved velocity change dv (corrected first when translation_correction) and advances the clock,
// once the contacts the solve kept have their impulses and work in the filter; the contacts keep their
// normal velocity through the correction. For a solver that computes the impulses itself (the GPU step's,
// whose ForceBuffers hold no Jacobian blocks); the others call finish_implicit_step.
inline void apply_implicit_step(const ClothModel& model, ClothState& state, const ForceBuffers& forces, float h,
                                glm::vec3* dv, bool translation_correction) {
  if (translation_correction && correct_free_translation(model, state, forces, h, dv)) state.contact_filter.impose(dv);
  glm::vec3* v = state.velocity.data();
  glm::vec3* x = state.position.data();
  for (size_t i = 0; i < state.velocity.size(); ++i) {
    v[i] += dv[i];
    x[i] += h * v[i];
  }
  state.time += h;
  ++state.step_count;
}

// apply_implicit_step after the contacts' impulses from the solved dv (sim/contact_filter.h).
inline void finish_implicit_step(const ClothModel& model, ClothState& state, const ForceBuffers& forces, float h,
                                 glm::vec3* dv, bool translation_correction) {
  record_contact_impulses(model, forces, h, dv, state.contact_filter);
  apply_implicit_step(model, state, forces, h, dv, translation_correction);
}

}  // namespace weft
