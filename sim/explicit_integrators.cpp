#include "sim/explicit_integrators.h"

namespace weft {

void SymplecticEulerIntegrator::step(const ClothModel& model, ClothState& state, float h) {
  glm::vec3* x = state.position.data();
  glm::vec3* v = state.velocity.data();
  evaluate_forces(model, x, v, forces_,
                  {.jacobian = false, .hinge_rest_angle = plastic_rest_angles(state), .plastic_strain = plastic_strains(state)});
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    v[i] = state.kinematic[i] ? state.kinematic_velocity[i] : v[i] + h * model.inv_mass[i] * forces_.force[i];
    x[i] += h * v[i];
  }
  state.time += h;
  ++state.step_count;
}

RungeKutta4Integrator::RungeKutta4Integrator(const ClothModel& model) : forces_(model) {
  const size_t n = model.vertex_count();
  x_stage_.resize(n);
  v_stage_.resize(n);
  x_sum_.resize(n);
  v_sum_.resize(n);
}

void RungeKutta4Integrator::step(const ClothModel& model, ClothState& state, float h) {
  const size_t n = model.vertex_count();
  glm::vec3* x = state.position.data();
  glm::vec3* v = state.velocity.data();
  for (size_t i = 0; i < n; ++i)
    if (state.kinematic[i]) v[i] = state.kinematic_velocity[i];
  // Stage s evaluates the derivative at (x_stage, v_stage), accumulates it with weight w and prepares
  // the next stage at x + c h k.
  const float weight[4] = {1.f, 2.f, 2.f, 1.f};
  const float next_c[4] = {0.5f, 0.5f, 1.f, 0.f};
  std::copy(x, x + n, x_stage_.begin());
  std::copy(v, v + n, v_stage_.begin());
  std::fill(x_sum_.begin(), x_sum_.end(), glm::vec3(0.f));
  std::fill(v_sum_.begin(), v_sum_.end(), glm::vec3(0.f));
  for (int s = 0; s < 4; ++s) {
    evaluate_forces(model, x_stage_.data(), v_stage_.data(), forces_,
                    {.jacobian = false, .hinge_rest_angle = plastic_rest_angles(state), .plastic_strain = plastic_strains(state)});
    for (size_t i = 0; i < n; ++i) {
      const glm::vec3 dx = v_stage_[i];
      const glm::vec3 dvdt = state.kinematic[i] ? glm::vec3(0.f) : model.inv_mass[i] * forces_.force[i];
      x_sum_[i] += weight[s] * dx;
      v_sum_[i] += weight[s] * dvdt;
      x_stage_[i] = x[i] + next_c[s] * h * dx;
      v_stage_[i] = v[i] + next_c[s] * h * dvdt;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    x[i] += (h / 6.f) * x_sum_[i];
    v[i] += (h / 6.f) * v_sum_[i];
  }
  state.time += h;
  ++state.step_count;
}

}  // namespace weft
