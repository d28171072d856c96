#include "sim/gauss_seidel.h"

#include <algorithm>
#include <cstring>

#include "sim/implicit_step.h"

namespace weft {

GaussSeidelIntegrator::GaussSeidelIntegrator(const ClothModel& model, const SolverOptions& options)
    : options_(options),
      forces_(model),
      colouring_(colour_vertices(model.vertex_count(), model.link)),
      w_inverse_(model.vertex_count()),
      b_(model.vertex_count()),
      dv_(model.vertex_count()),
      dv_prev_(model.vertex_count()),
      dv_sweep_(model.vertex_count()) {
  const size_t n = model.vertex_count(), nlink = model.link_count_total();
  adj_offset_.assign(n + 1, 0);
  for (const auto& l : model.link) {
    ++adj_offset_[l[0] + 1];
    ++adj_offset_[l[1] + 1];
  }
  for (size_t i = 0; i < n; ++i) adj_offset_[i + 1] += adj_offset_[i];
  adj_vertex_.resize(2 * nlink);
  adj_link_.resize(2 * nlink);
  std::vector<uint32_t> at(adj_offset_.begin(), adj_offset_.end() - 1);
  for (uint32_t l = 0; l < nlink; ++l) {
    const uint32_t i = model.link[l][0], j = model.link[l][1];
    adj_vertex_[at[i]] = j;
    adj_link_[at[i]++] = l;
    adj_vertex_[at[j]] = i;
    adj_link_[at[j]++] = l;
  }
}

void GaussSeidelIntegrator::sweep(const uint8_t* kinematic, float h2, float hcd, bool forward) {
  const LinkBlocks& J = forces_.link_jacobian;
  const float *Jxx = J.xx.data(), *Jxy = J.xy.data(), *Jxz = J.xz.data();
  const float *Jyy = J.yy.data(), *Jyz = J.yz.data(), *Jzz = J.zz.data();
  const uint32_t* off = adj_offset_.data();
  const uint32_t* nb = adj_vertex_.data();
  const uint32_t* lk = adj_link_.data();
  glm::vec3* dv = dv_.data();
  const size_t ncolour = colouring_.colour_count();
  for (size_t cc = 0; cc < ncolour; ++cc) {
    const size_t c = forward ? cc : ncolour - 1 - cc;
    for (uint32_t k = colouring_.colour_offset[c]; k < colouring_.colour_offset[c + 1]; ++k) {
      const uint32_t i = colouring_.order[k];
      if (kinematic[i]) continue;
      // r_i = h f~_i + sum_j B_ij dv_j, B_ij = h^2 J_ij + h C_d I = -W_ij (Eq. 19 and 27)
      float rx = 0.f, ry = 0.f, rz = 0.f, sx = 0.f, sy = 0.f, sz = 0.f;
      for (uint32_t e = off[i]; e < off[i + 1]; ++e) {
        const uint32_t j = nb[e], l = lk[e];
        const glm::vec3 d = dv[j];
        rx += Jxx[l] * d.x + Jxy[l] * d.y + Jxz[l] * d.z;
        ry += Jxy[l] * d.x + Jyy[l] * d.y + Jyz[l] * d.z;
        rz += Jxz[l] * d.x + Jyz[l] * d.y + Jzz[l] * d.z;
        sx += d.x; sy += d.y; sz += d.z;
      }
      const glm::vec3 r = b_[i] + h2 * glm::vec3(rx, ry, rz) + hcd * glm::vec3(sx, sy, sz);
      dv[i] = w_inverse_[i] * r;
    }
  }
}

void GaussSeidelIntegrator::step(const ClothModel& model, ClothState& state, float h) {
  const size_t n = model.vertex_count();
  glm::vec3* x = state.position.data();
  glm::vec3* v = state.velocity.data();
  const uint8_t* kin = state.kinematic.data();
  evaluate_forces(model, x, v, forces_,
                  {.jacobian = true, .viscosity_h = h, .hinge_rest_angle = plastic_rest_angles(state), .plastic_strain = plastic_strains(state)});

  // W_ii = M_i - h^2 J_ii + h (n_i C_d + c_drag) I (Eq. 18 and 27); J_ii = -sum_j J_ij.
  const float h2 = h * h, cd = model.material.damping;
  const bool warm = state.step_count == expected_step_;
  for (size_t i = 0; i < n; ++i) {
    if (kin[i]) {
      w_inverse_[i] = Sym3{};
      dv_[i] = state.kinematic_velocity[i] - v[i];  // imposed, never changed by the sweeps
      continue;
    }
    const Sym3 W = implicit_diagonal(model, forces_, h, i);
    w_inverse_[i] = W.inverse();
    b_[i] = h * forces_.force[i];
    // First guess. The inertial guess x + h v + h^2 g (dv = h g; Vertex Block Descent's) gets the uniform
    // mode right, which local sweeps cannot: started from dv = 0, a lifted cloth kept rising 0.6 m above
    // the hands (gravity hardly acts on the smooth modes). What it leaves instead, a supported cloth
    // sagging in its smooth modes, is caught by the tethers. The last dv unclamped diverges.
    if (warm && options_.gs_warm_start) continue;
    dv_[i] = options_.gs_inertial_guess ? h * model.material.gravity : glm::vec3(0.f);
  }

  // Symmetric sweeps (forward then backward colour order), optionally Chebyshev-accelerated.
  const float hcd = h * cd, rho = options_.gs_chebyshev_rho;
  float omega = 1.f;
  double last_change = 0;
  for (int s = 0; s < options_.gs_sweeps; ++s) {
    if (rho > 0.f) std::memcpy(dv_sweep_.data(), dv_.data(), n * sizeof(glm::vec3));
    sweep(kin, h2, hcd, s % 2 == 0);
    if (rho <= 0.f) continue;
    // Chebyshev weights (Wang 2015 Eq. 12): 1, then 2 / (2 - rho^2), then 4 / (4 - rho^2 omega).
    double change = 0;
    for (size_t i = 0; i < n; ++i) {
      const glm::vec3 d = dv_[i] - dv_sweep_[i];
      change += double(glm::dot(d, d));
    }
    if (s > 0 && change > last_change) omega = 1.f;  // diverging: back to plain sweeps
    else omega = s == 0 ? 1.f : s == 1 ? 2.f / (2.f - rho * rho) : 4.f / (4.f - rho * rho * omega);
    last_change = change;
    if (omega != 1.f)
      for (size_t i = 0; i < n; ++i)
        if (!kin[i]) dv_[i] = omega * (dv_[i] - dv_prev_[i]) + dv_prev_[i];
    std::memcpy(dv_prev_.data(), dv_sweep_.data(), n * sizeof(glm::vec3));
  }

  finish_implicit_step(model, state, forces_, h, dv_.data(), options_.translation_correction);
  expected_step_ = state.step_count;
  stats_.solver_iterations = options_.gs_sweeps;
}

}  // namespace weft
