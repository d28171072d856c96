#pragma once
// The linear system every linearised implicit step of Weft solves, written once for the generalised
// integrators (Volino & Thalmann 2005 Eq. 9 and 11) and the static equilibrium solve:
//   W y = b,  W = a M - c D_links - s J,
// with J the force Jacobian blocks of evaluate_forces (per link and their sums), D_links the links'
// relative damping (Kang & Cho Eq. 26) and the air drag on the diagonal. Solved by conjugate gradients
// with a 3x3 block-Jacobi preconditioner; fixed vertices keep the y they come in with (the
// Baraff-Witkin filter). Scratch is sized once; solve() does not allocate.
#include <vector>

#include "sim/force_field.h"

namespace weft {

struct BlockSystemCoefficients {
  float mass = 1.f;      // a: weight of M
  float damping = 0.f;   // c: weight of the relative damping and drag (h for a step of h)
  float jacobian = 0.f;  // s: weight of -J (h^2 for a step of h)
};

struct BlockSolveStats {
  int iterations = 0;
  float residual = 0;  // relative residual |r| / |b|
};

class BlockSystem {
 public:
  explicit BlockSystem(const ClothModel& model);

  // y holds the warm start (and the values of the fixed vertices); fixed may be null.
  BlockSolveStats solve(const ClothModel& model, const ForceBuffers& forces, const uint8_t* fixed,
                        const BlockSystemCoefficients& k, const glm::vec3* b, glm::vec3* y, float tolerance,
                        int max_iterations);

  // out = J in (the stiffness part of the stored blocks; J_ii = -sum_j J_ij).
  static void multiply_jacobian(const ClothModel& model, const ForceBuffers& forces, const glm::vec3* in,
                                glm::vec3* out);

 private:
  void multiply(const ClothModel& model, const ForceBuffers& forces, const uint8_t* fixed,
                const BlockSystemCoefficients& k, const glm::vec3* in, glm::vec3* out) const;
  std::vector<Sym3> diag_, precond_;              // W_ii and its inverse (nvert)
  std::vector<glm::vec3> r_, d_, q_, s_;          // CG vectors (nvert)
};

}  // namespace weft
