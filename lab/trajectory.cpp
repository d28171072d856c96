#include "lab/trajectory.h"

#include <algorithm>
#include <cmath>

#include "sim/force_field.h"

namespace weft::lab {

Trajectory simulate(const ClothModel& model, IntegratorKind kind, const SolverOptions& options, double h,
                    double check_interval, int checks) {
  Trajectory out;
  auto integrator = make_integrator(kind, model, options);
  ClothState state = make_rest_state(model);
  const int steps_per_check = std::max(1, int(std::lround(check_interval / h)));
  auto energy = [&] { return compute_energy(model, state.position.data(), state.velocity.data()).total(); };
  out.initial_energy = out.max_energy = energy();
  out.energy.push_back(out.initial_energy);
  out.checkpoints.push_back(state.position);
  for (int c = 0; c < checks && out.finite; ++c) {
    for (int s = 0; s < steps_per_check; ++s) integrator->step(model, state, float(h));
    out.steps += steps_per_check;
    for (size_t i = 0; i < state.position.size() && out.finite; ++i) {
      const glm::vec3 p = state.position[i], v = state.velocity[i];
      out.finite = std::isfinite(p.x + p.y + p.z + v.x + v.y + v.z);
      out.max_speed = std::max(out.max_speed, double(glm::length(v)));
    }
    const double e = energy();
    out.finite = out.finite && std::isfinite(e);
    out.max_energy = std::max(out.max_energy, e);
    out.energy.push_back(e);
    out.checkpoints.push_back(state.position);
  }
  for (size_t l = 0; l < model.link_count_total() && out.finite; ++l) {
    const float len = glm::length(state.position[model.link[l][1]] - state.position[model.link[l][0]]);
    out.final_max_strain = std::max(out.final_max_strain, double(len / model.rest_length[l] - 1.f));
  }
  return out;
}

}  // namespace weft::lab
