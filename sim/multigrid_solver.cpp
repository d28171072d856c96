#include "sim/multigrid_solver.h"

#include "sim/implicit_step.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace weft {
namespace {

constexpr uint32_t kParts = SolveTeam::kParts;
constexpr size_t kSliceFloats = 4 * SlicedBlockMatrix::kLanes;
// A sliding contact's normal block on the multigrid's diagonal, relative to the vertex's own diagonal.
constexpr float kContactStiffness = 100.f;

// Sums term over the floats of the fine level's part p, in slice_sum's order over its runs of slices
// (one part: the order of one slice_sum over the whole vector).
template <class Term>
double part_sum(const SlicedBlockMatrix& A, uint32_t p, Term term) {
  double total = 0;
  A.for_part_runs(p, [&](uint32_t first, uint32_t last) { total += slice_sum(first, last, term); });
  return total;
}
// Calls f(k) for every float k of part p.
template <class F>
void for_part(const SlicedBlockMatrix& A, uint32_t p, F f) {
  A.for_part_runs(p, [&](uint32_t first, uint32_t last) {
    for (size_t k = first * kSliceFloats; k < last * kSliceFloats; ++k) f(k);
  });
}
bool split_fine_level(const ClothModel& model, const SolverOptions& options) {
  return options.mg_threads >= 2 && model.vertex_count() >= options.mg_split_vertices;
}
// The parts' sums added in part order (the same with or without a helper thread).
double total(const double (&part)[kParts]) {
  double t = 0;
  for (double v : part) t += v;
  return t;
}

}  // namespace

MultigridIntegrator::MultigridIntegrator(const ClothModel& model, const SolverOptions& options)
    : options_(options),
      forces_(model),
      multigrid_(uint32_t(model.vertex_count()), model.link, model.edge_count, options.mg_smoothing_sweeps,
                 split_fine_level(model, options) ? SolveTeam::kParts : 1),
      team_(split_fine_level(model, options) && options.mg_helper && std::thread::hardware_concurrency() >= 2) {
  dv_nodes_.resize(model.vertex_count());
  for (float m : model.mass) total_mass_ += double(m);
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
                  {.jacobian = true, .viscosity_h = h, .hinge_rest_angle = plastic_rest_angles(state), .plastic_strain = plastic_strains(state),
                   .buckled = buckled_links(state)});

  // W_ii = M_i - h^2 J_ii + h (n_i C_d + c_drag) I (Eq. 18 and 27), W_ij = -(h^2 J_ij + h C_d I).
  const float h2 = h * h, cd = model.material.damping;
  const bool warm = options_.mg_warm_start && state.step_count == expected_step_;
  Sym3* diag = multigrid_.fine_diagonal();
  uint8_t* fixed = multigrid_.fine_fixed();
  for (size_t i = 0; i < n; ++i) {
    diag[i] = implicit_diagonal(model, forces_, h, i);
    fixed[i] = kin[i];
    if (kin[i]) dv_nodes_[i] = state.kinematic_velocity[i] - v[i];
    else if (!warm) dv_nodes_[i] = h * model.material.gravity;  // inertial guess
  }
  // The contacts the solve keeps (sim/contact_filter.h): their friction on the diagonal and the
  // right-hand side; dv starts with their normal components, and the residual, the preconditioned
  // residual and W p lose theirs (Baraff & Witkin's modified PCG). The multigrid is told too, with a stiff
  // normal block on its diagonal: on the directions the filter leaves free the matrix is the same (n^T p =
  // 0 there), but the cycle's sweeps and coarse corrections stop moving the vertex where it cannot go
  // (without it CG ran into its 20-iteration cap on every tick of a cloth on a table).
  const ContactFilter& filter = state.contact_filter;
  for (size_t i = 0; i < n; ++i) b_nodes_[i] = kin[i] ? glm::vec3(0.f) : h * forces_.force[i];
  for (size_t k = 0; k < filter.size(); ++k) {
    const uint32_t i = filter.vertex[k];
    filter.add_friction(k, diag[i], b_nodes_[i]);
    const Sym3& W = diag[i];
    diag[i] += Sym3::outer(filter.normal[k], kContactStiffness * (W.xx + W.yy + W.zz));
  }
  filter.impose(dv_nodes_.data());
  // The sewn seams likewise (sim/sewn_filter.h): each pair's members share their dv.
  const SewnFilter& sewn = state.sewn_filter;
  impose_sewn(sewn, dv_nodes_.data());
  multigrid_.assemble({.blocks = &forces_.link_jacobian, .scale = -h2, .shift = -h * cd}, &team_);
  const SlicedBlockMatrix& A = multigrid_.fine();
  const auto project = [&](float* u) {
    for (size_t k = 0; k < filter.size(); ++k) {
      float* s = u + 4 * size_t(A.slot(filter.vertex[k]));
      const glm::vec3 nrm = filter.normal[k];
      const float d = s[0] * nrm.x + s[1] * nrm.y + s[2] * nrm.z;
      s[0] -= d * nrm.x;
      s[1] -= d * nrm.y;
      s[2] -= d * nrm.z;
    }
    project_sewn(sewn, u, 4, [&](uint32_t i) { return A.slot(i); });
  };

  // b = h f~ over the free rows; r = b - W dv (the kinematic columns carry their imposed dv).
  A.to_slots(b_nodes_.data(), b_.data());
  A.to_slots(dv_nodes_.data(), dv_.data());
  A.publish_ghosts(dv_.data());
  A.residual(b_.data(), dv_.data(), r_.data());
  project(r_.data());
  // Stopping test on the error of dv in the energy norm, estimated from the steps CG takes after it
  // (Hestenes-Stiefel; Strakos & Tichy 2002): |dv* - dv_k|_W^2 >= sum_{j=k}^{k+d-1} alpha_j r_j.z_j, tight
  // when the error falls fast over those d steps. CG stops once the estimate for the iterate d steps back
  // is under tol^2 dv.W dv (dv.(b - r)) and keeps the current one, better still. A residual test stops too
  // early (W's condition number is in the thousands: the smooth part of the error leaves almost no
  // residual; a seamed pair of panels stopped closing 6 mm apart), and so did the r.z test this replaces:
  // from the last step's dv, the seams stalled 18 mm apart; from the inertial guess it stopped at 12.6
  // iterations where this estimate asks for 17 (a hand-held cotton cloth of 2.3 k vertices).
  //
  // Each part of the fine level (SolveTeam) updates its own slots of every vector and sums its share of
  // each dot product, so that with a helper thread the vectors' halves stay in their threads' caches.
  const double tol2 = double(options_.mg_tolerance) * options_.mg_tolerance;
  // The error is relative to dv.W dv, but never to less than the energy of the velocity change gravity
  // alone gives the cloth in a step: a cloth resting on a collider (its contacts held in the solve) has
  // dv near 0, and a purely relative test ran every such step into the iteration cap.
  const double g_step = double(h) * glm::length(model.material.gravity);
  const double floor_energy = g_step * g_step * total_mass_;
  double step_energy[kErrorDelay] = {};  // alpha_j r_j.z_j of the last kErrorDelay iterations
  double part[kParts];
  int it = 0;
  float* dv = dv_.data();
  float* r = r_.data();
  float* z = z_.data();
  float* p = p_.data();
  float* q = q_.data();
  const float* b = b_.data();
  multigrid_.apply(r, z, team_, part);
  project(z);  // r.z needs no correction: r is already projected
  double rz = total(part);
  if (rz > 1e-30) {
    float beta = 0.f;
    while (it < options_.mg_max_iterations) {
      // p = z + beta p (z on the first iteration), then q = W p and p.q
      A.clear_zero_slice(q);
      team_.run(2, [&](int part_index, int phase) {
        const uint32_t pi = uint32_t(part_index);
        if (phase == 0) {
          if (it == 0) for_part(A, pi, [&](size_t k) { p[k] = z[k]; });
          else for_part(A, pi, [&](size_t k) { p[k] = z[k] + beta * p[k]; });
          A.publish_ghosts(p, pi);
          return;
        }
        A.for_part_runs(pi, [&](uint32_t first, uint32_t last) { A.multiply(p, q, first, last); });
        part[pi] = part_sum(A, pi, [&](size_t k) { return p[k] * q[k]; });
      });
      project(q);  // p.q needs none: p is already projected
      const double pq = total(part);
      if (!(pq > 0)) break;
      const float alpha = float(rz / pq);
      // dv += alpha p, r -= alpha q, and dv.W dv = dv.(b - r) for the stopping test
      team_.run(1, [&](int part_index, int) {
        const uint32_t pi = uint32_t(part_index);
        for_part(A, pi, [&](size_t k) {
          dv[k] += alpha * p[k];
          r[k] -= alpha * q[k];
        });
        part[pi] = part_sum(A, pi, [&](size_t k) { return dv[k] * (b[k] - r[k]); });
      });
      step_energy[it % kErrorDelay] = double(alpha) * rz;
      ++it;
      if (it == options_.mg_max_iterations) break;
      if (it >= kErrorDelay) {
        double error2 = 0;
        for (double e : step_energy) error2 += e;
        if (error2 <= tol2 * std::max(std::abs(total(part)), floor_energy)) break;
      }
      multigrid_.apply(r, z, team_, part);
      project(z);
      const double rz_new = total(part);
      if (!(rz_new > 1e-30)) break;
      beta = float(rz_new / rz);
      rz = rz_new;
    }
  }
  const size_t floats = dv_.size();
  const auto dot = [&](const SlotVector& u, const SlotVector& w) {
    return slice_dot(u.data(), w.data(), 0, uint32_t(floats / kSliceFloats));
  };
  const double res = std::sqrt(dot(r_, r_) / std::max(dot(b_, b_), 1e-30));

  A.from_slots(dv_.data(), dv_nodes_.data());
  finish_implicit_step(model, state, forces_, h, dv_nodes_.data(), options_.translation_correction);
  expected_step_ = state.step_count;
  stats_.solver_iterations = it;
  stats_.residual = float(res);
}

}  // namespace weft
