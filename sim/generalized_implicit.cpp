#include "sim/generalized_implicit.h"

#include <algorithm>

namespace weft {

GeneralizedEulerIntegrator::GeneralizedEulerIntegrator(const ClothModel& model, float alpha, const SolverOptions& options)
    : alpha_(alpha), options_(options), forces_(model), system_(model) {
  const size_t n = model.vertex_count();
  b_.resize(n);
  dx_.resize(n);
  dv_.resize(n);
}

void GeneralizedEulerIntegrator::euler_step(const ClothModel& model, ClothState& state, float h, glm::vec3* dx,
                                            glm::vec3* dv) {
  const size_t n = model.vertex_count();
  const float ha = alpha_ * h;
  glm::vec3* v = state.velocity.data();
  // f~ = f + alpha h K v (Kang & Cho Eq. 13 with the step alpha h)
  evaluate_forces(model, state.position.data(), v, forces_,
                  {.jacobian = true, .viscosity_h = ha, .hinge_rest_angle = plastic_rest_angles(state), .plastic_strain = plastic_strains(state)});
  for (size_t i = 0; i < n; ++i) {
    b_[i] = h * forces_.force[i];
    dv[i] = state.kinematic[i] ? state.kinematic_velocity[i] - v[i] : glm::vec3(0.f);
  }
  const BlockSolveStats st = system_.solve(model, forces_, state.kinematic.data(), {.mass = 1.f, .damping = ha, .jacobian = ha * ha},
                                           b_.data(), dv, options_.cg_tolerance, options_.cg_max_iterations);
  stats_.solver_iterations = st.iterations;
  stats_.residual = st.residual;
  for (size_t i = 0; i < n; ++i)
    dx[i] = state.kinematic[i] ? h * (v[i] + dv[i]) : h * (v[i] + alpha_ * dv[i]);  // Eq. 9's position row
}

void GeneralizedEulerIntegrator::step(const ClothModel& model, ClothState& state, float h) {
  euler_step(model, state, h, dx_.data(), dv_.data());
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    state.position[i] += dx_[i];
    state.velocity[i] += dv_[i];
  }
  state.time += h;
  ++state.step_count;
}

Bdf2Integrator::Bdf2Integrator(const ClothModel& model, float alpha, const SolverOptions& options)
    : alpha_(alpha), options_(options), forces_(model), system_(model), start_(model, alpha, options) {
  const size_t n = model.vertex_count();
  for (auto* v : {&b_, &kdx_, &dv_, &dx_prev_, &dv_prev_}) v->resize(n);
}

void Bdf2Integrator::step(const ClothModel& model, ClothState& state, float h) {
  const size_t n = model.vertex_count();
  const bool continuing = have_history_ && state.step_count == history_step_ && state.time == history_time_ && h == history_h_;
  if (!continuing) {
    start_.euler_step(model, state, h, dx_prev_.data(), dv_prev_.data());
    stats_ = start_.stats();
  } else {
    const float beta = (2 * alpha_ - 1) / (2 * alpha_ + 1), dt = 2 * h / (2 * alpha_ + 1), ha = alpha_ * dt;
    glm::vec3* v = state.velocity.data();
    evaluate_forces(model, state.position.data(), v, forces_,
                    {.jacobian = true, .viscosity_h = ha, .hinge_rest_angle = plastic_rest_angles(state), .plastic_strain = plastic_strains(state)});
    BlockSystem::multiply_jacobian(model, forces_, dx_prev_.data(), kdx_.data());
    for (size_t i = 0; i < n; ++i) {
      b_[i] = dt * forces_.force[i] + beta * model.mass[i] * dv_prev_[i] + ha * beta * kdx_[i];
      dv_[i] = state.kinematic[i] ? state.kinematic_velocity[i] - v[i] : dv_prev_[i];  // warm start: last increment
    }
    const BlockSolveStats st = system_.solve(model, forces_, state.kinematic.data(),
                                             {.mass = 1.f, .damping = ha, .jacobian = ha * ha}, b_.data(), dv_.data(),
                                             options_.cg_tolerance, options_.cg_max_iterations);
    stats_.solver_iterations = st.iterations;
    stats_.residual = st.residual;
    for (size_t i = 0; i < n; ++i) {
      dx_prev_[i] = state.kinematic[i] ? h * (v[i] + dv_[i]) : beta * dx_prev_[i] + dt * (v[i] + alpha_ * dv_[i]);  // Eq. 10
      dv_prev_[i] = dv_[i];
    }
  }
  for (size_t i = 0; i < n; ++i) {
    state.position[i] += dx_prev_[i];
    state.velocity[i] += dv_prev_[i];
  }
  state.time += h;
  ++state.step_count;
  have_history_ = true;
  history_step_ = state.step_count;
  history_time_ = state.time;
  history_h_ = h;
}

}  // namespace weft
