#include "sim/block_system.h"

#include "sim/implicit_step.h"

#include <algorithm>
#include <cmath>

namespace weft {

BlockSystem::BlockSystem(const ClothModel& model) {
  const size_t n = model.vertex_count();
  diag_.resize(n);
  precond_.resize(n);
  for (auto* v : {&r_, &d_, &q_, &s_}) v->resize(n);
}

void BlockSystem::multiply_jacobian(const ClothModel& model, const ForceBuffers& forces, const glm::vec3* in,
                                    glm::vec3* out) {
  const size_t n = model.vertex_count();
  for (size_t i = 0; i < n; ++i) out[i] = -(forces.jacobian_sum[i] * in[i]);
  for (size_t l = 0; l < model.link_count_total(); ++l) {
    const uint32_t i = model.link[l][0], j = model.link[l][1];
    const Sym3 J = forces.link_jacobian.get(l);
    out[i] += J * in[j];
    out[j] += J * in[i];
  }
}

void BlockSystem::multiply(const ClothModel& model, const ForceBuffers& forces, const uint8_t* fixed,
                           const BlockSystemCoefficients& k, const glm::vec3* in, glm::vec3* out) const {
  const size_t n = model.vertex_count();
  const float cd = model.material.damping;
  for (size_t i = 0; i < n; ++i) out[i] = diag_[i] * in[i];
  for (size_t l = 0; l < model.link_count_total(); ++l) {
    const uint32_t i = model.link[l][0], j = model.link[l][1];
    Sym3 B = k.jacobian * forces.link_jacobian.get(l);  // W_ij = -B
    B.add_diagonal(k.damping * cd);
    out[i] -= B * in[j];
    out[j] -= B * in[i];
  }
  if (fixed)
    for (size_t i = 0; i < n; ++i)
      if (fixed[i]) out[i] = glm::vec3(0.f);
}

BlockSolveStats BlockSystem::solve(const ClothModel& model, const ForceBuffers& forces, const uint8_t* fixed,
                                   const BlockSystemCoefficients& k, const glm::vec3* b, glm::vec3* y, float tolerance,
                                   int max_iterations) {
  const size_t n = model.vertex_count();
  const float cd = model.material.damping;
  for (size_t i = 0; i < n; ++i) {
    Sym3 W = k.jacobian * forces.jacobian_sum[i];
    W.add_diagonal(k.mass * model.mass[i] + k.damping * (float(model.link_count[i]) * cd + forces.drag_coefficient[i]));
    diag_[i] = W;
    precond_[i] = fixed && fixed[i] ? Sym3{} : W.inverse();
  }
  // r = b - W y (filtered); d = P r
  multiply(model, forces, fixed, k, y, q_.data());
  double b2 = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool f = fixed && fixed[i];
    r_[i] = f ? glm::vec3(0.f) : b[i] - q_[i];
    d_[i] = precond_[i] * r_[i];
    if (!f) b2 += double(glm::dot(b[i], b[i]));
  }
  const double b_norm = std::max(std::sqrt(b2), 1e-30);
  double delta = dot(r_, d_);
  BlockSolveStats st;
  double res = std::sqrt(dot(r_, r_)) / b_norm;
  while (st.iterations < max_iterations && res > tolerance) {
    multiply(model, forces, fixed, k, d_.data(), q_.data());
    const double dq = dot(d_, q_);
    if (!(dq > 0)) break;
    const float alpha = float(delta / dq);
    for (size_t i = 0; i < n; ++i) {
      y[i] += alpha * d_[i];
      r_[i] -= alpha * q_[i];
      s_[i] = precond_[i] * r_[i];
    }
    const double delta_new = dot(r_, s_);
    const float beta = float(delta_new / delta);
    delta = delta_new;
    for (size_t i = 0; i < n; ++i) d_[i] = s_[i] + beta * d_[i];
    ++st.iterations;
    res = std::sqrt(dot(r_, r_)) / b_norm;
  }
  st.residual = float(res);
  return st;
}

}  // namespace weft
