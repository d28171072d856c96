#include "sim/runge_kutta45.h"

#include <algorithm>
#include <cmath>

namespace weft {
namespace {

// Cash-Karp tableau
constexpr double kA[6][5] = {{0, 0, 0, 0, 0},
                             {1.0 / 5, 0, 0, 0, 0},
                             {3.0 / 40, 9.0 / 40, 0, 0, 0},
                             {3.0 / 10, -9.0 / 10, 6.0 / 5, 0, 0},
                             {-11.0 / 54, 5.0 / 2, -70.0 / 27, 35.0 / 27, 0},
                             {1631.0 / 55296, 175.0 / 512, 575.0 / 13824, 44275.0 / 110592, 253.0 / 4096}};
constexpr double kB5[6] = {37.0 / 378, 0, 250.0 / 621, 125.0 / 594, 0, 512.0 / 1771};
constexpr double kB4[6] = {2825.0 / 27648, 0, 18575.0 / 48384, 13525.0 / 55296, 277.0 / 14336, 1.0 / 4};
constexpr int kMaxSubsteps = 1000000;  // per call: beyond it the step is taken whatever the error

}  // namespace

RungeKutta45Integrator::RungeKutta45Integrator(const ClothModel& model, float tolerance)
    : tolerance_(tolerance), forces_(model) {
  const size_t n = model.vertex_count();
  for (int s = 0; s < 6; ++s) {
    kx_[s].resize(n);
    kv_[s].resize(n);
  }
  xs_.resize(n);
  vs_.resize(n);
}

void RungeKutta45Integrator::step(const ClothModel& model, ClothState& state, float h) {
  const size_t n = model.vertex_count();
  glm::vec3* x = state.position.data();
  glm::vec3* v = state.velocity.data();
  for (size_t i = 0; i < n; ++i)
    if (state.kinematic[i]) v[i] = state.kinematic_velocity[i];
  if (!(dt_ > 0.f)) dt_ = h;
  const ForceOptions opts{.jacobian = false, .hinge_rest_angle = plastic_rest_angles(state), .plastic_strain = plastic_strains(state)};
  float done = 0.f;
  int substeps = 0;
  while (done < h) {
    const float dt = std::min(dt_, h - done);
    for (int s = 0; s < 6; ++s) {
      for (size_t i = 0; i < n; ++i) {
        glm::vec3 px = x[i], pv = v[i];
        for (int r = 0; r < s; ++r) {
          px += float(dt * kA[s][r]) * kx_[r][i];
          pv += float(dt * kA[s][r]) * kv_[r][i];
        }
        xs_[i] = px;
        vs_[i] = pv;
      }
      evaluate_forces(model, xs_.data(), vs_.data(), forces_, opts);
      for (size_t i = 0; i < n; ++i) {
        kx_[s][i] = vs_[i];
        kv_[s][i] = state.kinematic[i] ? glm::vec3(0.f) : model.inv_mass[i] * forces_.force[i];
      }
    }
    float err = 0.f;
    for (size_t i = 0; i < n; ++i) {
      glm::vec3 ex(0.f), ev(0.f);
      for (int s = 0; s < 6; ++s) {
        ex += float(dt * (kB5[s] - kB4[s])) * kx_[s][i];
        ev += float(dt * (kB5[s] - kB4[s])) * kv_[s][i];
      }
      err = std::max(err, std::max(glm::length(ex), glm::length(ev)));
    }
    err /= tolerance_;
    ++substeps;
    if (err <= 1.f || substeps >= kMaxSubsteps || !std::isfinite(err)) {
      for (size_t i = 0; i < n; ++i) {
        glm::vec3 dx(0.f), dv(0.f);
        for (int s = 0; s < 6; ++s) {
          dx += float(dt * kB5[s]) * kx_[s][i];
          dv += float(dt * kB5[s]) * kv_[s][i];
        }
        x[i] += dx;
        v[i] += dv;
      }
      done += dt;
      ++adaptive_.accepted;
      adaptive_.max_error = std::max(adaptive_.max_error, std::isfinite(err) ? err : 1e30f);
      adaptive_.last_dt = dt;
      // grow at most 5x (Numerical Recipes' safety 0.9, exponent -1/5)
      if (dt == dt_) dt_ = dt * std::min(5.f, 0.9f * std::pow(std::max(err, 1e-10f), -0.2f));
    } else {
      ++adaptive_.rejected;
      dt_ = dt * std::max(0.1f, 0.9f * std::pow(err, -0.25f));
    }
  }
  stats_.solver_iterations = substeps;
  state.time += h;
  ++state.step_count;
}

}  // namespace weft
