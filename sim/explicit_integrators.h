#pragma once
// Explicit references for small steps: symplectic Euler (Kang & Cho Eq. 3) and classic RK4.
#include <vector>

#include "sim/force_field.h"
#include "sim/integrator.h"

namespace weft {

class SymplecticEulerIntegrator final : public Integrator {
 public:
  explicit SymplecticEulerIntegrator(const ClothModel& model) : forces_(model) {}
  void step(const ClothModel& model, ClothState& state, float h) override;
  const char* name() const override { return "euler"; }

 private:
  ForceBuffers forces_;
};

class RungeKutta4Integrator final : public Integrator {
 public:
  explicit RungeKutta4Integrator(const ClothModel& model);
  void step(const ClothModel& model, ClothState& state, float h) override;
  const char* name() const override { return "rk4"; }

 private:
  ForceBuffers forces_;
  std::vector<glm::vec3> x_stage_, v_stage_;        // stage state (nvert)
  std::vector<glm::vec3> x_sum_, v_sum_;            // weighted sums of stage derivatives (nvert)
};

}  // namespace weft
