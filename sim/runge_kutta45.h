#pragma once
// Fifth-order explicit Runge-Kutta with embedded fourth-order error estimate and step-size control
// (Cash-Karp, Numerical Recipes sec. 16.2; Volino & Thalmann 2005 sec. 3.1.2). step(h) advances exactly
// h in as many adaptive sub-steps as the tolerance needs; the sub-step size carries over between calls.
// Error norm per sub-step: max over vertices of max(|e_x| in m, |e_v| in m/s) / tolerance, one absolute
// tolerance on the whole state vector (a velocity error scaled by dt let slow energy growth through).
#include <array>
#include <vector>

#include "sim/force_field.h"
#include "sim/integrator.h"

namespace weft {

struct AdaptiveStats {
  uint64_t accepted = 0;   // sub-steps taken since construction
  uint64_t rejected = 0;   // sub-steps redone with a smaller dt
  float last_dt = 0;       // s
  float max_error = 0;     // largest accepted error norm (<= 1 when the tolerance is met)
};

class RungeKutta45Integrator final : public Integrator {
 public:
  RungeKutta45Integrator(const ClothModel& model, float tolerance);
  void step(const ClothModel& model, ClothState& state, float h) override;
  const char* name() const override { return "rk45"; }
  const AdaptiveStats& adaptive_stats() const { return adaptive_; }

 private:
  float tolerance_;
  float dt_ = 0;  // current sub-step, s (0: not chosen yet)
  AdaptiveStats adaptive_;
  ForceBuffers forces_;
  std::array<std::vector<glm::vec3>, 6> kx_, kv_;  // stage derivatives (nvert each)
  std::vector<glm::vec3> xs_, vs_;                 // stage state (nvert)
};

}  // namespace weft
