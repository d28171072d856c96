// `weft validate kang`: Kang & Cho section 7. A 1 m x 1 m cloth (0.05 kg, springs 0.03 / l0) falls from
// horizontal, pinned at two corners; the approximate solver (k = 1) and CG at h = 1/150 s and 1/30 s are
// compared with a reference motion at h = 1/30000 s by E and S (Eq. 35-37) at every 1/30 s check point.
// Then the same with a cotton-like cloth.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "lab/plausibility.h"
#include "lab/required_checks.h"
#include "lab/scenarios.h"
#include "lab/trajectory.h"
#include "lab/validation_suites.h"

namespace weft::lab {
namespace {

struct KangSetup {
  const char* name;
  Material material;
};

// Air drag (Kang & Cho Eq. 31) in both the reference and the tested runs. Without it the undamped,
// very soft sheet turns chaotic after about 0.4 s and no integrator, CG included, tracks the reference.
constexpr float kAirDrag = 2.f;  // K_D per unit area, kg/m^3

KangSetup paper_setup(bool air) {
  Material m;
  m.total_mass = 0.05f;
  m.stiffness_scale = StiffnessScale::PerRestLength;
  m.stretch_stiffness = 0.03f;  // k = 0.03 / l0
  m.bend_stiffness = 0.03f;
  m.damping = 0.f;              // the paper's experiment shows no spring damping
  m.drag = air ? kAirDrag : 0.f;
  return {air ? "paper" : "paper-no-air", m};
}

KangSetup cotton_setup() {
  Material m = cotton_material();
  m.damping = 0.f;
  m.drag = kAirDrag;
  return {"cotton", m};
}

nlohmann::json run_setup(const KangSetup& setup, uint32_t quads, int checks, bool verbose) {
  const HangingCloth cloth = make_hanging_grid(quads, 1.f, true);
  const ClothModel model = build_cloth_model(cloth.mesh, setup.material, cloth.pins);
  const double interval = 1.0 / 30.0;
  if (verbose) std::fprintf(stderr, "validate kang [%s]: reference, h = 1/30000 s, %d check points...\n", setup.name, checks);
  const Trajectory ref = simulate(model, IntegratorKind::SymplecticEuler, {}, 1.0 / 30000, interval, checks);
  nlohmann::json runs = nlohmann::json::array();
  struct Test { IntegratorKind kind; double h; bool correction; };
  const Test tests[] = {{IntegratorKind::ApproximateImplicit, 1.0 / 150, false},
                        {IntegratorKind::ApproximateImplicit, 1.0 / 30, false},
                        {IntegratorKind::ApproximateImplicit, 1.0 / 150, true},
                        {IntegratorKind::ApproximateImplicit, 1.0 / 30, true},
                        {IntegratorKind::ConjugateGradient, 1.0 / 150, false},
                        {IntegratorKind::ConjugateGradient, 1.0 / 30, false}};
  for (const Test& t : tests) {
    SolverOptions options;
    options.translation_correction = t.correction;
    options.cg_tolerance = 1e-5f;
    options.cg_max_iterations = 1000;
    const Trajectory exp = simulate(model, t.kind, options, t.h, interval, checks);
    std::vector<double> E, S;
    std::vector<glm::vec3> dref(model.vertex_count()), dexp(model.vertex_count());
    const size_t points = std::min(ref.checkpoints.size(), exp.checkpoints.size());
    for (size_t c = 1; c < points; ++c) {
      for (size_t i = 0; i < model.vertex_count(); ++i) {
        dref[i] = ref.checkpoints[c][i] - ref.checkpoints[c - 1][i];
        dexp[i] = exp.checkpoints[c][i] - exp.checkpoints[c - 1][i];
      }
      const Plausibility p = compare_motion(dref.data(), dexp.data(), model.vertex_count(), model.pinned.data());
      E.push_back(p.error);
      S.push_back(p.similarity);
    }
    double mean_e = 0;
    for (double e : E) mean_e += e;
    mean_e = E.empty() ? NAN : mean_e / double(E.size());
    const double min_s = S.empty() ? NAN : *std::min_element(S.begin(), S.end());
    const double energy_gain = exp.max_energy - exp.initial_energy;
    const bool energy_bounded = exp.finite && energy_gain <= 0.01 * std::abs(exp.initial_energy) + 1e-9;
    nlohmann::json run = {{"setup", setup.name},
                          {"quads", quads},
                          {"solver", integrator_kind_name(t.kind)},
                          {"h", t.h},
                          {"h_inverse", std::lround(1.0 / t.h)},
                          {"k", t.kind == IntegratorKind::ApproximateImplicit ? 1 : 0},
                          {"translation_correction", t.correction},
                          {"mean_E", mean_e},
                          {"min_S", min_s},
                          {"finite", exp.finite},
                          {"energy_bounded", energy_bounded},
                          {"max_energy_gain_J", energy_gain},
                          {"check_points", E.size()},
                          {"E", E},
                          {"S", S}};
    if (verbose)
      std::fprintf(stderr, "  %-6s%-3s h = 1/%-5ld mean E = %.5f  min S = %.5f  finite = %d  energy bounded = %d\n",
                   integrator_kind_name(t.kind), t.correction ? "+tc" : "", std::lround(1.0 / t.h), mean_e, min_s, exp.finite, energy_bounded);
    runs.push_back(run);
  }
  return runs;
}

}  // namespace

nlohmann::json validate_kang(int checks, uint32_t quads, bool resolution_sweep, bool verbose) {
  nlohmann::json out = {{"experiment", "kang-cho section 7"},
                        {"cloth", "1 m x 1 m grid, horizontal, pinned at the two corners of one edge"},
                        {"quads_per_side", quads},
                        {"check_interval_s", 1.0 / 30},
                        {"reference", {{"solver", "euler"}, {"h", 1.0 / 30000}}}};
  nlohmann::json runs = nlohmann::json::array();
  for (const KangSetup& s : {paper_setup(true), paper_setup(false), cotton_setup()})
    for (auto& r : run_setup(s, quads, checks, verbose)) runs.push_back(r);
  // The paper does not give its mesh. With k = 1 a Jacobi step carries coupling one link per step, so at
  // h = 1/30 the approximate motion drifts from backward Euler as the grid gets finer: the sweep shows it.
  nlohmann::json sweep = nlohmann::json::array();
  if (resolution_sweep) {
    if (verbose) std::fprintf(stderr, "validate kang: mesh resolution sweep (paper setup)...\n");
    for (uint32_t q : {8u, 12u, 16u, 20u, 24u})
      for (auto& r : run_setup(paper_setup(true), q, checks, false))
        if (!r["translation_correction"].get<bool>()) {
          if (verbose)
            std::fprintf(stderr, "  %2u x %-2u %-6s h = 1/%-3ld mean E = %.4f  min S = %.4f\n", q, q,
                         r["solver"].get<std::string>().c_str(), r["h_inverse"].get<long>(), r["mean_E"].get<double>(),
                         r["min_S"].get<double>());
          r.erase("E");
          r.erase("S");
          sweep.push_back(r);
        }
  }
  // The bars, on the paper's setup.
  nlohmann::json checks_out = nlohmann::json::array();
  for (const auto& r : runs) {
    if (r["setup"] != "paper" || r["solver"] != "approx") continue;
    const std::string name = r["translation_correction"].get<bool>() ? "approx+tc" : "approx";
    const bool finite = r["finite"].get<bool>();
    if (r["h_inverse"] == 150) {
      checks_out.push_back({{"check", name + " h=1/150 mean E"}, {"value", r["mean_E"]}, {"bound", 0.01},
                            {"pass", finite && r["mean_E"].get<double>() <= 0.01}});
      checks_out.push_back({{"check", name + " h=1/150 min S"}, {"value", r["min_S"]}, {"bound", 0.99},
                            {"pass", finite && r["min_S"].get<double>() >= 0.99}});
    } else {
      checks_out.push_back({{"check", name + " h=1/30 finite, energy bounded"},
                            {"value", r["max_energy_gain_J"]},
                            {"bound", "gain <= 1% of E0"},
                            {"pass", finite && r["energy_bounded"].get<bool>()}});
      checks_out.push_back({{"check", name + " h=1/30 min S"}, {"value", r["min_S"]}, {"bound", 0.98},
                            {"pass", finite && r["min_S"].get<double>() >= 0.98}});
    }
  }
  const bool pass = required_checks_pass(checks_out);
  out["runs"] = runs;
  out["resolution_sweep"] = sweep;
  out["checks"] = checks_out;
  out["pass"] = pass;
  return out;
}

}  // namespace weft::lab
