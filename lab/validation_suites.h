#pragma once
// `weft validate` suites (app/validate_command.cpp registers them). Each runs its experiments, prints
// progress on stderr and returns {"checks": [...], "pass": bool} (lab/required_checks.h), with the
// suite's own keys beside them. `weft validate grasp` runs run_grasp_validation (lab/grasp_validation.h).
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "lab/self_collision_scenarios.h"

namespace weft::lab {

// lab/validate_kang.cpp (issue 2)
nlohmann::json validate_kang(int checks, uint32_t quads, bool resolution_sweep, bool verbose);
// lab/validate_poisson.cpp (issue 2)
nlohmann::json validate_poisson(uint32_t quads, bool verbose);
// lab/validate_stability.cpp (issue 2)
nlohmann::json validate_stability(double seconds, bool verbose);
// lab/validate_self_collision.cpp (issues 8, 15): the experiments of lab/self_collision_scenarios.h; scene
// all, drop, stack, fold or crumple. Each check's line goes to stderr as it is measured.
nlohmann::json validate_self_collision(const ScenarioOptions& options, const std::string& scene);
// lab/validate_tensile.cpp (issue 17)
nlohmann::json validate_tensile(uint32_t quads, uint32_t fine, bool presets, const std::string& material_dir);
// lab/validate_plasticity.cpp (issue 17)
nlohmann::json validate_plasticity(float tau);
// lab/validate_integrators.cpp (issue 17)
nlohmann::json validate_integrators(float seconds, float tol, const std::string& svg);

// lab/validate_interaction.cpp (issue 14): the solver under test against CG to 1e-6 on the two-hand
// experiment (lab/interaction_validation.h); the result also lists the runs ("runs").
struct InteractionValidationOptions {
  uint32_t quads = 127;        // grid quads per side (127: 16 384 vertices)
  std::string solver = "mg";   // the solver under test
  int cg_max_iterations = 3000;  // the CG reference's iteration cap
  float mg_tolerance = 0;      // mg: its CG's relative error of dv (0: the runtime's)
  int mg_iterations = 0;       // mg: iteration cap (0: the runtime's)
  int mg_smoothing = 0;        // mg: Gauss-Seidel sweeps per level and direction (0: the runtime's)
  bool no_reference = false;   // skip the CG reference and the checks that compare with it
  std::string device = "cpu";  // where the solver under test steps: cpu | gpu | auto (the CG reference: the CPU)
  std::string preconditioner = "jacobi";  // the GPU step's: jacobi (block Jacobi) | mg (a multigrid V-cycle) | chebyshev
  int chebyshev_iterations = 0;          // with chebyshev: the iterations recorded (0: GpuStepOptions' default)
};
nlohmann::json validate_interaction(const InteractionValidationOptions& options);

}  // namespace weft::lab
