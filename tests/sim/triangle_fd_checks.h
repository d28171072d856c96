#pragma once
// Finite-difference checks shared by the triangle kernels' tests (weft/warp, isotropic membrane): the
// forces against minus the energy gradient, the Jacobian blocks of the pairs (0,1), (1,2), (0,2) against
// dF_k / dP_l. kernel(p, blocks, out) evaluates one triangle at corners p into a WeaveTriangleResult.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include <glm/glm.hpp>

#include "sim/weft_warp_kernels.h"

namespace weft::test {

template <class Kernel>
void check_forces_are_energy_gradient(const Kernel& kernel, const std::array<glm::vec3, 3>& p) {
  WeaveTriangleResult r;
  kernel(p, false, r);
  const float d = 1e-5f;
  for (int k = 0; k < 3; ++k)
    for (int c = 0; c < 3; ++c) {
      auto q = p;
      WeaveTriangleResult rp, rm;
      q[k][c] += d;
      kernel(q, false, rp);
      q[k][c] -= 2 * d;
      kernel(q, false, rm);
      CHECK(r.force[k][c] == doctest::Approx(-(rp.energy - rm.energy) / (2.0 * d)).epsilon(2e-2).scale(1e-2));
    }
}

// The blocks are symmetrised, so they are held to the symmetric part of the finite-difference block.
template <class Kernel>
void check_blocks_against_finite_differences(const Kernel& kernel, const std::array<glm::vec3, 3>& p) {
  WeaveTriangleResult r;
  kernel(p, true, r);
  static constexpr int pair[3][2] = {{0, 1}, {1, 2}, {0, 2}};
  const float dp = 1e-5f;
  for (int q = 0; q < 3; ++q) {
    const int k = pair[q][0], l = pair[q][1];
    glm::mat3 fd;
    for (int c = 0; c < 3; ++c) {
      auto pp = p, pm = p;
      pp[l][c] += dp;
      pm[l][c] -= dp;
      WeaveTriangleResult a, b;
      kernel(pp, false, a);
      kernel(pm, false, b);
      fd[c] = (a.force[k] - b.force[k]) / (2 * dp);  // column c: dF_k / dP_l,c
    }
    const glm::mat3 sym = 0.5f * (fd + glm::transpose(fd));
    const glm::mat3 got = r.stiffness[q].to_mat3();
    float scale = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) scale = std::max(scale, std::fabs(sym[i][j]));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        INFO("pair " << q << " (" << i << "," << j << ")");
        CHECK(got[i][j] == doctest::Approx(sym[i][j]).epsilon(3e-2).scale(scale));
      }
  }
}

}  // namespace weft::test
