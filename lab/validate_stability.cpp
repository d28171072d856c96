// `weft validate stability`: the approximate solver keeps a hanging cloth finite with bounded energy
// through 10 s for every step from 1/1000 to 1/30 s and spring stiffness up to 1e4 N/m, where explicit
// Euler at 1/60 s blows up.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "lab/scenarios.h"
#include "lab/trajectory.h"
#include "lab/validation_suites.h"
#include "sim/world.h"

namespace weft::lab {

nlohmann::json validate_stability(double seconds, bool verbose) {
  const HangingCloth cloth = make_hanging_grid(20, 1.f, true);
  struct Case { IntegratorKind kind; bool correction; int iterations; double h; float stiffness; bool expect_stable; };
  std::vector<Case> cases;
  for (int iterations : {1, 3})
    for (float k : {10.f, 100.f, 1000.f, 10000.f})
      for (double inv_h : {1000.0, 500.0, 240.0, 120.0, 60.0, 30.0}) {
        cases.push_back({IntegratorKind::ApproximateImplicit, false, iterations, 1.0 / inv_h, k, true});
        cases.push_back({IntegratorKind::ApproximateImplicit, true, iterations, 1.0 / inv_h, k, true});
      }
  cases.push_back({IntegratorKind::SymplecticEuler, false, 1, 1.0 / 60, 1000.f, false});
  cases.push_back({IntegratorKind::SymplecticEuler, false, 1, 1.0 / 60, 10000.f, false});
  nlohmann::json runs = nlohmann::json::array(), checks = nlohmann::json::array();
  bool pass = true;
  for (const Case& c : cases) {
    Material m = cotton_material();
    m.stiffness_scale = StiffnessScale::Absolute;
    m.stretch_stiffness = c.stiffness;
    m.bend_stiffness = 0.01f * c.stiffness;
    const ClothModel model = build_cloth_model(cloth.mesh, m, cloth.pins);
    SolverOptions options;
    options.translation_correction = c.correction;
    options.iterations = c.iterations;
    const int checks_count = int(std::lround(seconds * 10));
    const Trajectory t = simulate(model, c.kind, options, c.h, 0.1, checks_count);
    // Bounded: after the first half (the fall and its transient) the energy grows no further.
    const auto middle = t.energy.begin() + std::ptrdiff_t(t.energy.size() / 2 + 1);
    const double first = *std::max_element(t.energy.begin(), middle);
    const double second = middle == t.energy.end() ? -INFINITY : *std::max_element(middle, t.energy.end());
    const double gain = second - first;
    const bool bounded = t.finite && std::isfinite(gain) && gain <= 0.01 * std::max(std::abs(first), 1e-3);
    std::string solver = std::string(integrator_kind_name(c.kind)) + (c.correction ? "+tc" : "");
    if (c.kind == IntegratorKind::ApproximateImplicit) solver += " k=" + std::to_string(c.iterations);
    if (verbose)
      std::fprintf(stderr, "validate stability: %-9s k = %7.0f N/m  h = 1/%-4ld finite %d  late energy gain %+.3g J  max speed %.3g m/s  final max strain %.3f\n",
                   solver.c_str(), c.stiffness, std::lround(1.0 / c.h), t.finite, gain, t.max_speed, t.final_max_strain);
    runs.push_back({{"solver", solver}, {"stiffness", c.stiffness}, {"h", c.h}, {"h_inverse", std::lround(1.0 / c.h)},
                    {"seconds", seconds}, {"finite", t.finite}, {"energy_bounded", bounded},
                    {"late_energy_gain_J", t.finite ? gain : INFINITY}, {"max_speed", t.max_speed},
                    {"final_max_strain", t.final_max_strain}});
    // Every approximate run (k = 1 and k = 3) must stay finite with bounded energy; explicit Euler must not.
    const bool ok = c.expect_stable ? bounded : !bounded;
    pass = pass && ok;
    checks.push_back({{"check", solver + " stiffness=" + std::to_string(int(c.stiffness)) + " h=1/" +
                                    std::to_string(std::lround(1.0 / c.h)) + (c.expect_stable ? " stays bounded" : " blows up")},
                      {"value", t.finite ? gain : INFINITY},
                      {"bound", c.expect_stable ? "finite; energy in 2nd half <= 1st half max + 1%" : "non-finite or growing energy"},
                      {"pass", ok},
                      {"finite", t.finite},
                      {"required", true}});
  }
  return {{"runs", runs}, {"checks", checks}, {"pass", pass}};
}

}  // namespace weft::lab
