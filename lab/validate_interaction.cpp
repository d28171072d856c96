// `weft validate interaction`: issue 14's bars for the runtime solver under two hands (lab/interaction_validation.h),
// against CG solved to a 1e-6 residual on the same scene and step.
#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "lab/interaction_validation.h"
#include "lab/required_checks.h"
#include "lab/validation_device.h"
#include "lab/validation_suites.h"
#include "sim/mesh_generators.h"

namespace weft::lab {
namespace {

nlohmann::json to_json(const InteractionResult& r, const char* solver, bool damping) {
  return {{"solver", solver},
          {"damping", damping},
          {"vertices", r.vertices},
          {"finite", r.finite},
          {"peak_elastic_J", r.peak_elastic},
          {"peak_kinetic_J", r.peak_kinetic},
          {"max_height_above_hand_m", r.max_height_above_hand},
          {"max_speed_held_m_s", r.max_speed_held},
          {"settle_time_s", r.settle_time},
          {"strain_p99_held", r.strain_p99},
          {"strain_max_held", r.strain_max},
          {"hold_energy_rise_J", r.hold_energy_rise},
          {"grasp_saturated_ticks", r.grasp_saturated},
          {"grasp_saturated_ticks_hands_still", r.grasp_saturated_still},
          {"release_energy_rise_J", r.release_energy_rise},
          {"energy_input_J", r.energy_input},
          {"mean_step_ms", r.mean_step_ms},
          {"mean_solver_iterations", r.mean_solver_iterations},
          {"max_cg_residual", r.max_cg_residual}};
}

// Issue 14's "soft cloth unchanged": Kang & Cho's soft paper (0.05 kg/m^2, springs 0.03 / l0) in the
// hanging scene's geometry (0.6 m, 31 x 31, two top corners pinned), released horizontal so that it
// swings down, 2 s at 240 Hz: RMS distance of the vertices between the solver and CG at 1e-6, worst tick.
double hanging_soft_rms(IntegratorKind solver, const SolverOptions& options, const IntegratorFactory& device) {
  Mesh mesh = make_grid({.width = 0.6f, .height = 0.6f, .columns = 30, .rows = 30});
  for (auto& p : mesh.positions) p = glm::vec3(p.x - 0.3f, 1.0f, p.y);
  Material m;
  m.areal_density = 0.05f;
  m.stretch_stiffness = 0.03f;
  m.bend_stiffness = 0.0003f;
  m.damping = 0.f;
  m.drag = 0.5f;
  const ClothModel model = build_cloth_model(mesh, m, {0, 30});
  WorldConfig tested, reference;
  tested.integrator = solver;
  tested.solver = options;
  tested.make_custom_integrator = device;
  reference.integrator = IntegratorKind::ConjugateGradient;
  reference.solver.cg_tolerance = 1e-6f;
  reference.solver.cg_max_iterations = 5000;
  World a(model, tested), b(model, reference);
  double worst = 0;
  for (int k = 0; k < 480; ++k) {
    a.step();
    b.step();
    double sum = 0;
    for (size_t i = 0; i < model.vertex_count(); ++i) {
      const glm::vec3 d = a.state().position[i] - b.state().position[i];
      sum += double(glm::dot(d, d));
    }
    worst = std::max(worst, std::sqrt(sum / double(model.vertex_count())));
  }
  return worst;
}

nlohmann::json check(const std::string& name, double value, double bound, bool pass) {
  return {{"check", name}, {"value", value}, {"bound", bound}, {"pass", pass}};
}

}  // namespace

nlohmann::json validate_interaction(const InteractionValidationOptions& o) {
  InteractionSetup setup;
  if (o.mg_tolerance > 0) setup.options.mg_tolerance = o.mg_tolerance;
  if (o.mg_iterations > 0) setup.options.mg_max_iterations = o.mg_iterations;
  if (o.mg_smoothing > 0) setup.options.mg_smoothing_sweeps = o.mg_smoothing;
  setup.quads = o.quads;
  setup.solver = parse_integrator_kind(o.solver);
  WorldConfig tested;
  tested.integrator = setup.solver;
  tested.solver = setup.options;
  GpuStepOptions gpu;
  gpu.multigrid = o.preconditioner == "mg";
  gpu.chebyshev = o.preconditioner == "chebyshev";
  if (o.chebyshev_iterations > 0) gpu.chebyshev_iterations = o.chebyshev_iterations;
  const StepDeviceChoice device = use_validation_device(o.device, "interaction", tested, {}, false, gpu);
  setup.make_integrator = tested.make_custom_integrator;
  // The GPU step solves by its own PCG.
  const std::string label = device.gpu ? (gpu.chebyshev ? "gpu-cheby" : gpu.multigrid ? "gpu-mg" : "gpu") : o.solver;
  const char* name = label.c_str();
  std::fprintf(stderr, "validate interaction: %u vertices, solver %s\n", (o.quads + 1) * (o.quads + 1), name);
  const InteractionResult test = run_interaction(setup);
  std::fprintf(stderr, "validate interaction: %s without damping\n", name);
  InteractionSetup undamped = setup;
  undamped.damping = false;
  const InteractionResult free = run_interaction(undamped);
  InteractionResult ref;
  if (!o.no_reference) {
    std::fprintf(stderr, "validate interaction: reference, CG to 1e-6 (slow)\n");
    InteractionSetup reference = setup;
    reference.solver = IntegratorKind::ConjugateGradient;
    reference.make_integrator = nullptr;  // the reference on the CPU
    reference.options.cg_tolerance = 1e-6f;
    reference.options.cg_max_iterations = o.cg_max_iterations;
    ref = run_interaction(reference);
  }
  std::fprintf(stderr, "validate interaction: hanging soft paper against CG at 1e-6\n");
  const double soft_rms = hanging_soft_rms(setup.solver, setup.options, setup.make_integrator);

  nlohmann::json checks = nlohmann::json::array();
  checks.push_back(check("finite (both damping settings)", test.finite && free.finite, 1, test.finite && free.finite));
  if (!o.no_reference) {
    checks.push_back(check("peak elastic energy / reference", test.peak_elastic / ref.peak_elastic, 2.0,
                           test.peak_elastic <= 2.0 * ref.peak_elastic));
    checks.push_back(check("peak kinetic energy / reference", test.peak_kinetic / ref.peak_kinetic, 1.2,
                           test.peak_kinetic <= 1.2 * ref.peak_kinetic));
  }
  checks.push_back(check("free vertex above the higher hand (m)", test.max_height_above_hand, 0.01,
                         test.max_height_above_hand <= 0.01));
  checks.push_back(check("peak vertex speed while holding (m/s)", test.max_speed_held, 1.5, test.max_speed_held <= 1.5));
  checks.push_back(check("KE under 1 % of peak after release (s)", test.settle_time, 0.5,
                         test.settle_time >= 0 && test.settle_time <= 0.5));
  // Without damping, no work is done on the cloth while the hands are still and after the release: its
  // total energy must not rise then, beyond 1 % of what the hands put in.
  const double allowed = 0.01 * free.energy_input;
  checks.push_back(check("damping 0: energy rise, hands still / input", free.hold_energy_rise / free.energy_input,
                         0.01, free.hold_energy_rise <= allowed));
  checks.push_back(check("damping 0: energy rise after release / input", free.release_energy_rise / free.energy_input,
                         0.01, free.release_energy_rise <= allowed));
  checks.push_back(check("edge strain p99 while held", test.strain_p99, 0.01, test.strain_p99 <= 0.01));
  checks.push_back(check("edge strain max while held", test.strain_max, 0.03, test.strain_max <= 0.03));
  checks.push_back(check("hanging soft paper: RMS from CG, worst tick (m)", soft_rms, 0.001, soft_rms <= 0.001));
  nlohmann::json runs = {to_json(test, name, true), to_json(free, name, false)};
  if (!o.no_reference) runs.push_back(to_json(ref, "cg", true));
  nlohmann::json out = {{"runs", runs}, {"checks", checks}, {"pass", required_checks_pass(checks)}};
  out.update(device_json(device));
  return out;
}

}  // namespace weft::lab
