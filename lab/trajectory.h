#pragma once
// Runs a cloth with one integrator and records positions at regular check points: the raw material
// of the plausibility (Kang & Cho section 7) and stability validations.
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth_model.h"
#include "sim/integrator.h"

namespace weft::lab {

struct Trajectory {
  std::vector<std::vector<glm::vec3>> checkpoints;  // positions at t = 0, dt, 2 dt, ... (checks + 1)
  bool finite = true;            // every position and velocity stayed finite
  double initial_energy = 0;     // total mechanical energy at t = 0, J
  double max_energy = 0;         // largest total energy seen at a check point, J
  double max_speed = 0;          // largest vertex speed seen at a check point, m/s
  std::vector<double> energy;    // total energy at each check point, J (checks + 1)
  double final_max_strain = 0;   // largest link strain l / l0 - 1 at the end
  int steps = 0;
};

// Advances with step h; records every check_interval seconds (rounded to whole steps), `checks` times.
Trajectory simulate(const ClothModel& model, IntegratorKind kind, const SolverOptions& options, double h,
                    double check_interval, int checks);

}  // namespace weft::lab
