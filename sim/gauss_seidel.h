#pragma once
// The runtime solver: Kang & Cho's linearised backward Euler step (the same system W dv = h f~ as the
// approximate solver and CG: Eq. 14 with the stabilised Jacobian of Eq. 21-22, relative damping Eq. 26-28
// and air drag) solved by a few sweeps of block Gauss-Seidel over a vertex colouring (3x3 blocks, one
// per vertex; the colour-by-colour order of Vertex Block Descent, Chen et al. 2024), started from the
// inertial guess (dv = h g). Unlike Kang & Cho's truncated Jacobi series, every Gauss-Seidel sweep lowers
// the error of the symmetric positive definite system in its energy norm, so unconverged sweeps never
// add energy; what they leave (the slow, long-range stretch under a hand) is the tethers' job (tether.h).
// Optional Chebyshev semi-iterative acceleration over symmetric sweeps (Wang 2015), reset when the
// residual grows. O(n) per sweep, no allocation per step.
#include <vector>

#include "sim/force_field.h"
#include "sim/integrator.h"
#include "sim/vertex_colouring.h"

namespace weft {

class GaussSeidelIntegrator final : public Integrator {
 public:
  GaussSeidelIntegrator(const ClothModel& model, const SolverOptions& options);
  void step(const ClothModel& model, ClothState& state, float h) override;
  const char* name() const override { return "gs"; }
  const VertexColouring& colouring() const { return colouring_; }

 private:
  // One sweep over all colours, forward or backward; returns the squared change of dv.
  void sweep(const uint8_t* kinematic, float h2, float hcd, bool forward);

  SolverOptions options_;
  ForceBuffers forces_;
  VertexColouring colouring_;
  std::vector<uint32_t> adj_offset_;  // links of vertex i: adj_[adj_offset_[i] .. adj_offset_[i + 1]) (nvert + 1)
  std::vector<uint32_t> adj_vertex_;  // the other end per entry (2 nlink)
  std::vector<uint32_t> adj_link_;    // the link index per entry (2 nlink)
  std::vector<Sym3> w_inverse_;       // W_ii^-1 per vertex (nvert); zero for kinematic vertices
  std::vector<glm::vec3> b_;          // h f~_i per vertex (nvert)
  std::vector<glm::vec3> dv_;         // current iterate; kept as the next step's first guess (nvert)
  std::vector<glm::vec3> dv_prev_;    // Chebyshev: the iterate before the last (nvert)
  std::vector<glm::vec3> dv_sweep_;   // Chebyshev: the iterate before this sweep (nvert)
  uint64_t expected_step_ = UINT64_MAX;  // state.step_count the warm start belongs to
};

}  // namespace weft
