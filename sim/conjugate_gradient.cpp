#include "sim/conjugate_gradient.h"


#include "sim/implicit_step.h"

#include <algorithm>
#include <cmath>

namespace weft {

ConjugateGradientIntegrator::ConjugateGradientIntegrator(const ClothModel& model, const SolverOptions& options)
    : options_(options), forces_(model) {
  const size_t n = model.vertex_count();
  w_diag_.resize(n);
  precond_.resize(n);
  for (auto* vec : {&b_, &x_, &r_, &d_, &q_, &s_}) vec->resize(n);
}

void ConjugateGradientIntegrator::multiply_w(const ClothModel& model, const ClothState& state, float h,
                                             const glm::vec3* in, glm::vec3* out) const {
  const size_t n = model.vertex_count();
  for (size_t i = 0; i < n; ++i) out[i] = w_diag_[i] * in[i];
  for (size_t l = 0; l < model.link_count_total(); ++l) {
    const uint32_t i = model.link[l][0], j = model.link[l][1];
    const Sym3 B = implicit_coupling(model, forces_, h, l);  // W_ij = -B
    out[i] -= B * in[j];
    out[j] -= B * in[i];
  }
  for (size_t i = 0; i < n; ++i)
    if (state.kinematic[i]) out[i] = glm::vec3(0.f);  // filter: constrained directions carry no residual
}

void ConjugateGradientIntegrator::step(const ClothModel& model, ClothState& state, float h) {
  const size_t n = model.vertex_count();
  glm::vec3* x = state.position.data();
  glm::vec3* v = state.velocity.data();
  evaluate_forces(model, x, v, forces_,
                  {.jacobian = true, .viscosity_h = h, .hinge_rest_angle = plastic_rest_angles(state), .plastic_strain = plastic_strains(state)});
  for (size_t i = 0; i < n; ++i) {
    const Sym3 W = implicit_diagonal(model, forces_, h, i);
    w_diag_[i] = W;
    if (state.kinematic[i]) {
      precond_[i] = Sym3{};
      x_[i] = state.kinematic_velocity[i] - v[i];  // imposed dv, never changed by the iterations
    } else {
      precond_[i] = W.inverse();
      x_[i] = precond_[i] * (h * forces_.force[i]);  // block-Jacobi warm start, the p_i of Kang & Cho
    }
    b_[i] = state.kinematic[i] ? glm::vec3(0.f) : h * forces_.force[i];
  }
  // r = b - W x (filtered); d = P r
  multiply_w(model, state, h, x_.data(), q_.data());
  for (size_t i = 0; i < n; ++i) {
    r_[i] = state.kinematic[i] ? glm::vec3(0.f) : b_[i] - q_[i];
    d_[i] = precond_[i] * r_[i];
  }
  double delta = dot(r_, d_);
  const double b_norm = std::max(std::sqrt(dot(b_, b_)), 1e-30);
  int it = 0;
  double res = std::sqrt(dot(r_, r_)) / b_norm;
  while (it < options_.cg_max_iterations && res > options_.cg_tolerance) {
    multiply_w(model, state, h, d_.data(), q_.data());
    const double dq = dot(d_, q_);
    if (!(dq > 0)) break;
    const float alpha = float(delta / dq);
    for (size_t i = 0; i < n; ++i) {
      x_[i] += alpha * d_[i];
      r_[i] -= alpha * q_[i];
      s_[i] = precond_[i] * r_[i];
    }
    const double delta_new = dot(r_, s_);
    const float beta = float(delta_new / delta);
    delta = delta_new;
    for (size_t i = 0; i < n; ++i) d_[i] = s_[i] + beta * d_[i];
    ++it;
    res = std::sqrt(dot(r_, r_)) / b_norm;
  }
  finish_implicit_step(model, state, forces_, h, x_.data(), options_.translation_correction);
  stats_.solver_iterations = it;
  stats_.residual = float(res);
}

}  // namespace weft
