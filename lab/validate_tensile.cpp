// `weft validate tensile`: the virtual tensile test of Volino & Thalmann 2005 sec. 2.2.3. A 10 cm square,
// clamped along two opposite edges, is stretched to 50 % along the weft, the warp and 15/30/45 degrees
// off-axis, on a regular and an irregular mesh, with a nonlinear isotropic material sigma_uu = sigma_vv =
// 2 sigma_uv, under both membranes (isotropic, and the paper's weft/warp strains); the force per unit
// width is compared with the input curve. Then each fabric preset's weft, warp and bias stiffness are
// measured against its curves.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "engine/material_loader.h"
#include "lab/required_checks.h"
#include "lab/tensile_test.h"
#include "lab/validation_suites.h"
#include "sim/mesh_generators.h"

namespace weft::lab {
namespace {

double relative(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-12); }

}  // namespace

nlohmann::json validate_tensile(uint32_t quads, uint32_t fine, bool presets, const std::string& material_dir) {
  struct NamedMesh { const char* name; Mesh mesh; };
  const NamedMesh meshes[] = {
      {"regular", make_grid({.width = 0.1f, .height = 0.1f, .columns = quads, .rows = quads})},
      {"irregular", make_irregular({.width = 0.1f, .height = 0.1f, .columns = quads, .rows = quads, .seed = 3})}};
  std::vector<double> strains;
  for (int k = 1; k <= 10; ++k) strains.push_back(0.05 * k);
  const Material iso = paper_tensile_material();
  nlohmann::json runs = nlohmann::json::array(), checks = nlohmann::json::array();
  // The paper's weft/warp membrane (Eq. 4 strains) is isotropic only to first order: off-axis, the
  // clamped square does not deform uniformly under it (its free sides contract or bulge), so its answer
  // is held to a fine regular mesh of the same model, and its distance to the input curve is printed, not
  // required. The isotropic membrane (principal stretches) must match the input curve in every direction.
  const Mesh fine_mesh = make_grid({.width = 0.1f, .height = 0.1f, .columns = fine, .rows = fine});
  std::map<float, std::vector<TensilePoint>> fine_points;
  for (float angle : {15.f, 30.f, 45.f}) fine_points[angle] = run_tensile_test(fine_mesh, iso, angle, strains);
  for (const Membrane membrane : {Membrane::Isotropic, Membrane::WeftWarp})
    for (const auto& nm : meshes)
      for (float angle : {0.f, 90.f, 15.f, 30.f, 45.f}) {
        Material material = iso;
        material.weave.membrane = membrane;
        const bool weft_warp = membrane == Membrane::WeftWarp;
        const char* membrane_name = weft_warp ? "weft_warp" : "isotropic";
        const auto points = run_tensile_test(nm.mesh, material, angle, strains);
        const bool thread = angle == 0.f || angle == 90.f;
        double err_curve = 0, err_model = 0, err_fine = 0, within_1pct = 0;
        bool converged = true, inside = true;
        nlohmann::json curve = nlohmann::json::array();
        for (size_t k = 0; k < points.size(); ++k) {
          const TensilePoint& p = points[k];
          const double input = double(iso.weave.weft(float(p.strain)).stress);
          const bool fine_ref = weft_warp && !thread;
          const double ref = fine_ref ? fine_points[angle][k].force_per_width : input;
          err_curve = std::max(err_curve, relative(p.force_per_width, input));
          err_model = std::max(err_model, relative(p.force_per_width, p.homogeneous));
          err_fine = std::max(err_fine, relative(p.force_per_width, ref));
          inside = inside && relative(p.force_per_width, input) <= 0.01;
          if (inside) within_1pct = p.strain;
          converged = converged && p.converged && (!fine_ref || fine_points[angle][k].converged);
          curve.push_back({{"strain", p.strain}, {"force_per_width", p.force_per_width}, {"input_curve", input},
                           {"fine_mesh", ref}, {"homogeneous_model", p.homogeneous}, {"newton", p.newton_iterations}});
          std::fprintf(stderr, "validate tensile: %-9s %-9s %4.0f deg  strain %.2f  F/w %9.4f N/m  input curve %9.4f  "
                       "reference %9.4f  uniform stretch %9.4f  (%d Newton)\n", membrane_name, nm.name, angle, p.strain,
                       p.force_per_width, input, ref, p.homogeneous, p.newton_iterations);
        }
        runs.push_back({{"membrane", membrane_name}, {"mesh", nm.name}, {"angle_deg", angle}, {"points", curve},
                        {"max_error_vs_curve", err_curve}, {"max_error_vs_fine_mesh", err_fine},
                        {"max_error_vs_uniform_stretch", err_model}, {"strain_within_1pct_of_curve", within_1pct},
                        {"converged", converged}});
        // Built by appending: GCC 12 warns falsely (-Wrestrict, its bug 105329) on "literal" + std::string&&.
        std::string tag = std::string(membrane_name) + ", " + nm.name;
        if (thread) tag += angle == 0.f ? " weft" : " warp";
        else tag.append(" ").append(std::to_string(int(angle))).append(" deg");
        checks.push_back({{"check", "equilibrium converged (" + tag + ")"}, {"value", converged ? 1 : 0}, {"bound", "1"},
                          {"pass", converged}});
        if (thread) {
          checks.push_back({{"check", "F/w vs input curve, to 50 % (" + tag + ")"}, {"value", err_curve},
                            {"bound", "<= 0.001"}, {"pass", err_curve <= 1e-3}});
        } else if (!weft_warp) {
          checks.push_back({{"check", "F/w vs input curve, to 50 % (" + tag + ")"}, {"value", err_curve},
                            {"bound", "<= 0.01"}, {"pass", err_curve <= 1e-2}});
        } else {
          checks.push_back({{"check", "F/w vs fine mesh, to 50 % (" + tag + ")"}, {"value", err_fine},
                            {"bound", "<= 0.01"}, {"pass", err_fine <= 1e-2}});
          checks.push_back({{"check", "F/w vs input curve, to 50 % (" + tag + ")"}, {"value", err_curve},
                            {"bound", "<= 0.01"}, {"pass", err_curve <= 1e-2}, {"required", false}});
        }
      }

  // Presets: weft, warp and bias (45 deg) secant stiffness at 2 % on the regular mesh against the curves.
  nlohmann::json preset_rows = nlohmann::json::array();
  if (presets)
    for (const std::string& name : list_material_presets(material_dir)) {
      const Material m = load_material_preset(name, material_dir);
      if (m.stretch_model != StretchModel::WeftWarp) {
        std::fprintf(stderr, "validate tensile: preset %-12s (%s model: no weave curves)\n", name.c_str(),
                     m.stretch_model == StretchModel::Springs ? "springs" : "volino");
        preset_rows.push_back({{"preset", name}, {"weft_warp", false}});
        continue;
      }
      const double e = 0.02;
      nlohmann::json row = {{"preset", name}, {"weft_warp", true}, {"strain", e}};
      for (const auto& [key, angle] : {std::pair{"weft", 0.f}, std::pair{"warp", 90.f}}) {
        const auto p = run_tensile_test(meshes[0].mesh, m, angle, {e});
        const double measured = p[0].force_per_width / e;
        const double expected = double(angle == 0.f ? m.weave.weft(float(e)).stress : m.weave.warp(float(e)).stress) / e;
        row[std::string(key) + "_measured_N_per_m"] = measured;
        row[std::string(key) + "_curve_N_per_m"] = expected;
        checks.push_back({{"check", "preset " + name + " " + key + " secant stiffness vs curve"},
                          {"value", relative(measured, expected)}, {"bound", "<= 0.001"},
                          {"pass", relative(measured, expected) <= 1e-3}});
      }
      // Bias (45 deg): between the free-sided uniaxial answer 1/E45 = (1/k_u + 1/k_v + 1/k_s) / 4 (secants
      // at the strains a 45 deg pull gives: e/2 on the threads, e in shear) and the clamped uniform stretch.
      const auto p = run_tensile_test(meshes[0].mesh, m, 45.f, {e});
      const double ku = m.weave.weft(float(e / 2)).stress / (e / 2), kv = m.weave.warp(float(e / 2)).stress / (e / 2);
      const double ks = m.weave.shear(float(e)).stress / e;
      const double free_sides = 4.0 / (1 / ku + 1 / kv + 1 / ks), clamped_uniform = p[0].homogeneous / e;
      const double bias = p[0].force_per_width / e;
      row["bias_measured_N_per_m"] = bias;
      row["bias_uniaxial_N_per_m"] = free_sides;
      row["bias_uniform_stretch_N_per_m"] = clamped_uniform;
      checks.push_back({{"check", "preset " + name + " bias between uniaxial and uniform"}, {"value", bias},
                        {"bound", std::string("[").append(std::to_string(int(free_sides))).append(", ")
                                   .append(std::to_string(int(clamped_uniform))).append("]")},
                        {"pass", bias >= 0.99 * free_sides && bias <= 1.01 * clamped_uniform}});
      std::fprintf(stderr, "validate tensile: preset %-12s at 2 %%: weft %8.1f N/m (curve %8.1f)  warp %8.1f (curve %8.1f)  bias %8.1f (uniaxial %8.1f, uniform %8.1f)\n",
                   name.c_str(), row["weft_measured_N_per_m"].get<double>(), row["weft_curve_N_per_m"].get<double>(),
                   row["warp_measured_N_per_m"].get<double>(), row["warp_curve_N_per_m"].get<double>(), bias, free_sides,
                   clamped_uniform);
      preset_rows.push_back(row);
    }
  const bool pass = required_checks_pass(checks);
  return {{"experiment", "volino-thalmann 2005 sec. 2.2.3 virtual tensile test"}, {"quads", quads}, {"runs", runs},
          {"presets", preset_rows}, {"checks", checks}, {"pass", pass}};
}

}  // namespace weft::lab
