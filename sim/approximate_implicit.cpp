#include "sim/approximate_implicit.h"

#include "sim/link_pass_simd.h"
#include "sim/link_scatter.h"
#include "sim/implicit_step.h"

#include <algorithm>

namespace weft {
namespace {

// Per link, B (dv_j) for end i and B (dv_i) for end j, with B = h^2 J + h C_d I. Plain arrays and
// restrict pointers so GCC vectorises it (gathers of dv).
void link_coupling(size_t begin, size_t end, const uint32_t* __restrict I, const uint32_t* __restrict Jv,
                   const float* __restrict D, const float* __restrict Axx, const float* __restrict Axy,
                   const float* __restrict Axz, const float* __restrict Ayy, const float* __restrict Ayz,
                   const float* __restrict Azz, float h2, float hcd, float* __restrict cix, float* __restrict ciy,
                   float* __restrict ciz, float* __restrict cjx, float* __restrict cjy, float* __restrict cjz) {
  for (size_t l = begin; l < end; ++l) {
    const uint32_t i = 3 * I[l], j = 3 * Jv[l];
    const size_t o = l - begin;
    const float bxx = h2 * Axx[l] + hcd, bxy = h2 * Axy[l], bxz = h2 * Axz[l];
    const float byy = h2 * Ayy[l] + hcd, byz = h2 * Ayz[l], bzz = h2 * Azz[l] + hcd;
    const float ax = D[j], ay = D[j + 1], az = D[j + 2];  // dv_j, acting on i
    const float bx = D[i], by = D[i + 1], bz = D[i + 2];  // dv_i, acting on j
    cix[o] = bxx * ax + bxy * ay + bxz * az;
    ciy[o] = bxy * ax + byy * ay + byz * az;
    ciz[o] = bxz * ax + byz * ay + bzz * az;
    cjx[o] = bxx * bx + bxy * by + bxz * bz;
    cjy[o] = bxy * bx + byy * by + byz * bz;
    cjz[o] = bxz * bx + byz * by + bzz * bz;
  }
}

}  // namespace

ApproximateImplicitIntegrator::ApproximateImplicitIntegrator(const ClothModel& model, int iterations, bool translation_correction)
    : iterations_(iterations),
      translation_correction_(translation_correction),
      forces_(model),
      w_inverse_(model.vertex_count()),
      p_(model.vertex_count()),
      dv_(model.vertex_count()),
      dv_next_(model.vertex_count()),
      coupling_(kCouplingRecord * model.vertex_count()),
      dv_record_(kCouplingRecord * model.vertex_count()) {
  for (auto* c : {&cix_, &ciy_, &ciz_, &cjx_, &cjy_, &cjz_}) c->resize(kBlock);
}

void ApproximateImplicitIntegrator::step(const ClothModel& model, ClothState& state, float h) {
  const size_t n = model.vertex_count(), nlink = model.link_count_total();
  glm::vec3* x = state.position.data();
  glm::vec3* v = state.velocity.data();
  evaluate_forces(model, x, v, forces_,
                  {.jacobian = true, .viscosity_h = h, .hinge_rest_angle = plastic_rest_angles(state), .plastic_strain = plastic_strains(state)});

  // W_i' = M_i - h^2 J_ii + h (n_i C_d + c_drag) I (Eq. 18 and 27); J_ii = -sum_j J_ij.
  const float h2 = h * h, cd = model.material.damping;
  for (size_t i = 0; i < n; ++i) {
    if (state.kinematic[i]) {
      w_inverse_[i] = Sym3{};
      p_[i] = state.kinematic_velocity[i] - v[i];
      continue;
    }
    const Sym3 W = implicit_diagonal(model, forces_, h, i);
    w_inverse_[i] = W.inverse();
    p_[i] = w_inverse_[i] * (h * forces_.force[i]);
  }

  // dv^(k+1)_i = p_i + W_i'^-1 sum_j B_ij dv^(k)_j with B_ij = h^2 J_ij + h C_d I (Eq. 19 and 27):
  // a vectorised pass computes each link's term for both ends, a second pass adds them up.
  std::copy(p_.begin(), p_.end(), dv_.begin());
  const uint32_t* __restrict I = model.link_first.data();
  const uint32_t* __restrict Jv = model.link_second.data();
  const LinkBlocks& J = forces_.link_jacobian;
  const float hcd = h * cd;
  for (int it = 0; it < iterations_; ++it) {
    std::fill(coupling_.begin(), coupling_.end(), 0.f);
    float* coupling = coupling_.data();
    size_t done = 0;
#if defined(WEFT_LINK_PASS_SIMD)
    for (size_t i = 0; i < n; ++i) {
      float* r = dv_record_.data() + kCouplingRecord * i;
      r[0] = dv_[i].x; r[1] = dv_[i].y; r[2] = dv_[i].z; r[3] = 0.f;
    }
    done = coupling_pass_simd(I, Jv, J.xx.data(), J.xy.data(), J.xz.data(), J.yy.data(), J.yz.data(), J.zz.data(),
                              dv_record_.data(), h2, hcd, 0, nlink, coupling);
#endif
    // Blocks of kBlock links (the links the SIMD pass left, or all): the vectorised terms stay in L1 until
    // they are added onto the vertices.
    for (size_t begin = done; begin < nlink; begin += kBlock) {
      const size_t end = std::min(nlink, begin + kBlock);
      link_coupling(begin, end, I, Jv, &dv_[0].x, J.xx.data(), J.xy.data(), J.xz.data(), J.yy.data(), J.yz.data(),
                    J.zz.data(), h2, hcd, cix_.data(), ciy_.data(), ciz_.data(), cjx_.data(), cjy_.data(),
                    cjz_.data());
      scatter_coupling(begin, end, I, Jv, cix_.data(), ciy_.data(), ciz_.data(), cjx_.data(), cjy_.data(), cjz_.data(),
                       coupling);
    }
    for (size_t i = 0; i < n; ++i) {
      const float* c = coupling + kCouplingRecord * i;
      dv_next_[i] = p_[i] + w_inverse_[i] * glm::vec3(c[0], c[1], c[2]);
    }
    std::swap(dv_, dv_next_);
  }

  finish_implicit_step(model, state, forces_, h, dv_.data(), translation_correction_);
  stats_.solver_iterations = iterations_;
}

}  // namespace weft
