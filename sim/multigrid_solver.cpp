#include "sim/multigrid_solver.h"

#include "sim/implicit_step.h"

#include <algorithm>
#include <cmath>

namespace weft {
namespace {

// Dot products of slot vectors (whole slices: a multiple of 32 floats). Each block of 32 floats sums in
// float, 8 lanes at a time; the blocks add up in double. Fast (the loop vectorises without reassociating
// one sum: no -ffast-math here) and as accurate as the double sums the Krylov loops need.
template <class Term>
double block_sum(size_t floats, Term term) {
  double total = 0;
  for (size_t k = 0; k < floats; k += 32) {
    float lane[8] = {};
    for (size_t q = k; q < k + 32; q += 8)
      for (size_t j = 0; j < 8; ++j) lane[j] += term(q + j);
    total += double(((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7])));
  }
  return total;
}
double dot(const SlotVector& a, const SlotVector& b) {
  return block_sum(a.size(), [&](size_t k) { return a[k] * b[k]; });
}

}  // namespace

MultigridIntegrator::MultigridIntegrator(const ClothModel& model, const SolverOptions& options)
    : options_(options),
      forces_(model),
      multigrid_(uint32_t(model.vertex_count()), model.link, model.edge_count, options.mg_smoothing_sweeps) {
  dv_nodes_.resize(model.vertex_count());
  b_nodes_.resize(model.vertex_count());
  const size_t floats = 4 * size_t(multigrid_.fine().slot_count());
  for (auto* vec : {&dv_, &b_, &r_, &z_, &p_, &q_}) vec->assign(floats, 0.f);
}

void MultigridIntegrator::step(const ClothModel& model, ClothState& state, float h) {
  const size_t n = model.vertex_count();
  glm::vec3* x = state.position.data();
  glm::vec3* v = state.velocity.data();
  const uint8_t* kin = state.kinematic.data();
  evaluate_forces(model, x, v, forces_,
                  {.jacobian = true, .viscosity_h = h, .hinge_rest_angle = plastic_rest_angles(state), .plastic_strain = plastic_strains(state)});

  // W_ii = M_i - h^2 J_ii + h (n_i C_d + c_drag) I (Eq. 18 and 27), W_ij = -(h^2 J_ij + h C_d I).
  const float h2 = h * h, cd = model.material.damping;
  const bool warm = options_.mg_warm_start && state.step_count == expected_step_;
  Sym3* diag = multigrid_.fine_diagonal();
  uint8_t* fixed = multigrid_.fine_fixed();
  for (size_t i = 0; i < n; ++i) {
    Sym3 W = h2 * forces_.jacobian_sum[i];
    W.add_diagonal(model.mass[i] + h * (float(model.link_count[i]) * cd + forces_.drag_coefficient[i]));
    diag[i] = W;
    fixed[i] = kin[i];
    if (kin[i]) dv_nodes_[i] = state.kinematic_velocity[i] - v[i];
    else if (!warm) dv_nodes_[i] = h * model.material.gravity;  // inertial guess
  }
  multigrid_.assemble({.blocks = &forces_.link_jacobian, .scale = -h2, .shift = -h * cd});
  const SlicedBlockMatrix& A = multigrid_.fine();
  const size_t floats = dv_.size();

  // b = h f~ over the free rows; r = b - W dv (the kinematic columns carry their imposed dv).
  for (size_t i = 0; i < n; ++i) b_nodes_[i] = kin[i] ? glm::vec3(0.f) : h * forces_.force[i];
  A.to_slots(b_nodes_.data(), b_.data());
  A.to_slots(dv_nodes_.data(), dv_.data());
  A.residual(b_.data(), dv_.data(), r_.data());
  // Stopping test on the error of dv in the energy norm, estimated from the steps CG takes after it
  // (Hestenes-Stiefel; Strakos & Tichy 2002): |dv* - dv_k|_W^2 >= sum_{j=k}^{k+d-1} alpha_j r_j.z_j, tight
  // when the error falls fast over those d steps. CG stops once the estimate for the iterate d steps back
  // is under tol^2 dv.W dv (dv.(b - r)) and keeps the current one, better still. A residual test stops too
  // early (W's condition number is in the thousands: the smooth part of the error leaves almost no
  // residual; a seamed pair of panels stopped closing 6 mm apart), and so did the r.z test this replaces:
  // from the last step's dv, the seams stalled 18 mm apart; from the inertial guess it stopped at 12.6
  // iterations where this estimate asks for 17 (a hand-held cotton cloth of 2.3 k vertices).
  const double tol2 = double(options_.mg_tolerance) * options_.mg_tolerance;
  double step_energy[kErrorDelay] = {};  // alpha_j r_j.z_j of the last kErrorDelay iterations
  int it = 0;
  multigrid_.apply(r_.data(), z_.data());
  double rz = dot(r_, z_);
  if (rz > 1e-30) {
    p_ = z_;
    while (it < options_.mg_max_iterations) {
      multigrid_.multiply(p_.data(), q_.data());
      const double pq = dot(p_, q_);
      if (!(pq > 0)) break;
      const float alpha = float(rz / pq);
      for (size_t k = 0; k < floats; ++k) {
        dv_[k] += alpha * p_[k];
        r_[k] -= alpha * q_[k];
      }
      step_energy[it % kErrorDelay] = double(alpha) * rz;
      ++it;
      if (it == options_.mg_max_iterations) break;
      if (it >= kErrorDelay) {
        double error2 = 0;
        for (double e : step_energy) error2 += e;
        const double size2 = block_sum(floats, [&](size_t k) { return dv_[k] * (b_[k] - r_[k]); });
        if (error2 <= tol2 * std::abs(size2)) break;
      }
      multigrid_.apply(r_.data(), z_.data());
      const double rz_new = dot(r_, z_);
      if (!(rz_new > 1e-30)) break;
      const float beta = float(rz_new / rz);
      rz = rz_new;
      for (size_t k = 0; k < floats; ++k) p_[k] = z_[k] + beta * p_[k];
    }
  }
  const double res = std::sqrt(dot(r_, r_) / std::max(dot(b_, b_), 1e-30));

  A.from_slots(dv_.data(), dv_nodes_.data());
  finish_implicit_step(model, state, forces_, h, dv_nodes_.data(), options_.translation_correction);
  expected_step_ = state.step_count;
  stats_.solver_iterations = it;
  stats_.residual = float(res);
}

}  // namespace weft
