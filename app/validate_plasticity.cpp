// `weft validate plasticity`: Volino, Courchesne & Thalmann 1995 sec. 3.4 on the weft/warp hinges. A strip
// (20 cm x 4 cm, 1 cm quads) is folded along the line x = 10 cm by turning its right half about that line
// to 1.2 rad, held, and released (left half held). Past the yield curvature the crease keeps the rest
// angle  Phi - kappa_yield (A1 + A2) / (3 |e|)  (analytic; 1.1 rad here). With a relaxation time the
// crease then opens as exp(-t / tau); the fitted time constant is compared with the configured one.
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "app/check_report.h"
#include "app/commands.h"
#include "sim/integrator.h"
#include "sim/mesh_generators.h"
#include "sim/plasticity.h"

namespace weft::app {
namespace {

constexpr float kFoldX = 0.1f, kFold = 1.2f, kYield = 30.f;

struct FoldRun {
  std::vector<double> time, angle;  // after release: s, rad
  double analytic_rest = 0;         // rad
};

// The fold angle from the flap's far edge (mid row): 0 flat, kFold when folded.
double fold_angle(const ClothState& s, size_t tip) {
  const glm::vec3 p = s.position[tip];
  return std::atan2(double(p.z), double(p.x - kFoldX));
}

FoldRun fold_and_release(bool plastic, float tau, float seconds) {
  const Mesh mesh = make_grid({.width = 0.2f, .height = 0.04f, .columns = 20, .rows = 4});
  Material m;
  m.stretch_model = StretchModel::WeftWarp;
  m.weave.weft = StressCurve::linear(2000.f);
  m.weave.warp = StressCurve::linear(2000.f);
  m.weave.shear = StressCurve::linear(500.f);
  m.weave.weft_bending = m.weave.warp_bending = 5e-4f;  // stiff enough that the flap follows its rest angle within ~0.3 s
  m.weave.plasticity = {.enabled = plastic, .yield_curvature = kYield, .relaxation_time = tau};
  m.gravity = glm::vec3(0.f);
  m.damping = 0.002f;  // near-critical damping of the flap
  std::vector<uint32_t> held;
  for (uint32_t i = 0; i < mesh.vertex_count(); ++i)
    if (mesh.positions[i].x < kFoldX + 1e-5f) held.push_back(i);
  const ClothModel model = build_cloth_model(mesh, m, held);
  ClothState s = make_rest_state(model);
  const size_t tip = 2 * 21 + 20;  // row 2, last column
  const float h = 1.f / 240.f;
  // fold: the right half turned about the line x = kFoldX (along y) over 1 s, then held 0.5 s
  for (int k = 1; k * h <= 1.5f; ++k) {
    const float a = kFold * std::min(1.f, k * h);
    for (size_t i = 0; i < model.vertex_count(); ++i) {
      const glm::vec3 p0 = model.rest_position[i];
      if (p0.x <= kFoldX + 1e-5f) continue;
      const float r = p0.x - kFoldX;
      s.position[i] = glm::vec3(kFoldX + r * std::cos(a), p0.y, r * std::sin(a));
      s.velocity[i] = glm::vec3(0.f);
    }
    update_plasticity(model, s, h);
  }
  FoldRun run;
  // per fold hinge: A1 + A2 = dx dy, |e| = dy: the yield angle is kappa_y dx / 3
  run.analytic_rest = plastic ? kFold - kYield * 0.01 / 3.0 : 0.0;
  auto integrator = make_integrator(IntegratorKind::ConjugateGradient, model, {.cg_tolerance = 1e-5f, .cg_max_iterations = 400});
  for (int k = 1; k * h <= seconds; ++k) {
    integrator->step(model, s, h);
    update_plasticity(model, s, h);
    if (k % 12 == 0) {
      run.time.push_back(k * h);
      run.angle.push_back(fold_angle(s, tip));
    }
  }
  return run;
}

}  // namespace

nlohmann::json validate_plasticity(float tau) {
  nlohmann::json checks = nlohmann::json::array();
  // 1. rest angle after release (no relaxation: tau far longer than the run)
  const FoldRun kept = fold_and_release(true, 1e9f, 1.5f);
  const double rest = kept.angle.back();
  const double rest_error = std::abs(rest - kept.analytic_rest) / kept.analytic_rest;
  std::fprintf(stderr, "validate plasticity: folded to %.3f rad, released: rest angle %.4f rad (analytic %.4f)\n", kFold,
               rest, kept.analytic_rest);
  checks.push_back({{"check", "crease rest angle vs analytic"}, {"value", rest_error}, {"bound", "<= 0.10"},
                    {"pass", rest_error <= 0.10}});
  // 2. without plasticity the strip springs back flat
  const FoldRun elastic = fold_and_release(false, 1.f, 1.5f);
  std::fprintf(stderr, "validate plasticity: without plasticity: %.4f rad after 1.5 s\n", elastic.angle.back());
  checks.push_back({{"check", "elastic strip springs back flat (rad)"}, {"value", std::abs(elastic.angle.back())},
                    {"bound", "<= 0.02"}, {"pass", std::abs(elastic.angle.back()) <= 0.02}});
  // 3. relaxation: least-squares fit of log(angle) = a - t / tau over [1 s, 3 tau] after release (the flap has settled onto its rest angle)
  const FoldRun relax = fold_and_release(true, tau, 3.2f * tau);
  double n = 0, st = 0, sy = 0, stt = 0, sty = 0;
  nlohmann::json curve = nlohmann::json::array();
  for (size_t k = 0; k < relax.time.size(); ++k) {
    curve.push_back({relax.time[k], relax.angle[k]});
    if (relax.time[k] < 1.0 || relax.time[k] > 3 * tau || !(relax.angle[k] > 0)) continue;
    const double t = relax.time[k], y = std::log(relax.angle[k]);
    n += 1, st += t, sy += y, stt += t * t, sty += t * y;
  }
  const double slope = (n * sty - st * sy) / (n * stt - st * st);
  const double fitted = -1.0 / slope;
  const double tau_error = std::abs(fitted - tau) / tau;
  std::fprintf(stderr, "validate plasticity: relaxation: fitted tau %.4f s (configured %.4f s), %g points\n", fitted, tau, n);
  checks.push_back({{"check", "relaxation time constant (fit vs configured)"}, {"value", tau_error}, {"bound", "<= 0.10"},
                    {"pass", tau_error <= 0.10}});
  const bool pass = required_checks_pass(checks);
  return {{"experiment", "volino-courchesne-thalmann 1995 sec. 3.4 bending plasticity"},
          {"fold_rad", kFold}, {"yield_curvature", kYield}, {"rest_angle_rad", rest}, {"analytic_rest_angle_rad", kept.analytic_rest},
          {"configured_tau_s", tau}, {"fitted_tau_s", fitted}, {"relaxation_curve", curve}, {"checks", checks}, {"pass", pass}};
}

void register_validate_plasticity(CLI::App& validate) {
  struct Args {
    bool json = false;
    float tau = 2.f;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = validate.add_subcommand("plasticity", "Volino 1995 plasticity: a folded strip keeps a crease, then relaxes");
  cmd->add_flag("--json", args->json, "Print the results as JSON on stdout");
  cmd->add_option("--tau", args->tau, "Relaxation time constant, s")->check(CLI::Range(0.2, 20.0));
  cmd->callback([args] { report_checks(validate_plasticity(args->tau), args->json); });
}

}  // namespace weft::app
