#include "sim/approximate_implicit.h"

#include <algorithm>

namespace weft {

ApproximateImplicitIntegrator::ApproximateImplicitIntegrator(const ClothModel& model, int iterations)
    : iterations_(iterations),
      forces_(model),
      w_inverse_(model.vertex_count()),
      p_(model.vertex_count()),
      dv_(model.vertex_count()),
      dv_next_(model.vertex_count()),
      coupling_(model.vertex_count()) {}

void ApproximateImplicitIntegrator::step(const ClothModel& model, ClothState& state, float h) {
  const size_t n = model.vertex_count(), nlink = model.link_count_total();
  glm::vec3* x = state.position.data();
  glm::vec3* v = state.velocity.data();
  evaluate_forces(model, x, v, forces_, {.jacobian = true, .viscosity_h = h});

  // W_i' = M_i - h^2 J_ii + h (n_i C_d + c_drag) I (Eq. 18 and 27); J_ii = -sum_j J_ij.
  const float h2 = h * h, cd = model.material.damping;
  for (size_t i = 0; i < n; ++i) {
    if (state.kinematic[i]) {
      w_inverse_[i] = Sym3{};
      p_[i] = state.kinematic_velocity[i] - v[i];
      continue;
    }
    Sym3 W = h2 * forces_.jacobian_sum[i];
    W.add_diagonal(model.mass[i] + h * (float(model.link_count[i]) * cd + forces_.drag_coefficient[i]));
    w_inverse_[i] = W.inverse();
    p_[i] = w_inverse_[i] * (h * forces_.force[i]);
  }

  // dv^(k+1)_i = p_i + W_i'^-1 sum_j (h^2 J_ij + h C_d I) dv^(k)_j   (Eq. 19 and 27)
  std::copy(p_.begin(), p_.end(), dv_.begin());
  const auto* link = model.link.data();
  const Sym3* J = forces_.link_jacobian.data();
  for (int it = 0; it < iterations_; ++it) {
    std::fill(coupling_.begin(), coupling_.end(), glm::vec3(0.f));
    for (size_t l = 0; l < nlink; ++l) {
      const uint32_t i = link[l][0], j = link[l][1];
      Sym3 B = h2 * J[l];
      B.add_diagonal(h * cd);
      coupling_[i] += B * dv_[j];
      coupling_[j] += B * dv_[i];
    }
    for (size_t i = 0; i < n; ++i) dv_next_[i] = p_[i] + w_inverse_[i] * coupling_[i];
    std::swap(dv_, dv_next_);
  }

  for (size_t i = 0; i < n; ++i) {
    v[i] += dv_[i];
    x[i] += h * v[i];
  }
  state.time += h;
  ++state.step_count;
  stats_.solver_iterations = iterations_;
}

}  // namespace weft
