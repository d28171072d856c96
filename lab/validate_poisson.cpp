// `weft validate poisson`: Volino & Thalmann 1997 Fig. 4. A square of Volino elastic triangles is pulled
// along x, its two x edges held (free to slide along y), on a regular and an irregular mesh, for alpha
// 0, 0.6, 1 and 1.2; the transverse contraction at mid-length gives an effective Poisson ratio.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include <nlohmann/json.hpp>

#include "lab/required_checks.h"
#include "lab/validation_suites.h"
#include "sim/integrator.h"
#include "sim/mesh_generators.h"

namespace weft::lab {
namespace {

struct PoissonResult {
  double poisson_ratio = 0;       // -(transverse strain) / (axial strain) at mid-length
  double transverse_strain = 0;   // w / w0 - 1 at mid-length
  double out_of_plane_m = 0;      // z range of the middle band: buckling amplitude
  bool finite = true;
};

PoissonResult pull_square(const Mesh& rest, float alpha, float stretch, uint32_t seed) {
  Material m;
  m.stretch_model = StretchModel::Volino;
  m.alpha = alpha;
  m.young_modulus = 200.f;
  m.areal_density = 0.15f;
  m.stiffness_scale = StiffnessScale::Absolute;
  m.bend_stiffness = 0.02f;  // weak bending: lets a compressed (alpha > 1) sheet buckle
  m.damping = 0.05f;
  m.volino_min_determinant = 1e-3f;  // the paper's model, without Weft's near-singular fallback
  m.gravity = glm::vec3(0.f);
  const ClothModel model = build_cloth_model(rest, m);
  ClothState state = make_rest_state(model);
  // Tiny out-of-plane noise so an unstable flat state can buckle.
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> noise(-1e-4f, 1e-4f);
  for (auto& p : state.position) p.z = noise(rng);

  float x_min = 1e9f, x_max = -1e9f, y_min = 1e9f, y_max = -1e9f;
  for (const auto& p : rest.positions) {
    x_min = std::min(x_min, p.x); x_max = std::max(x_max, p.x);
    y_min = std::min(y_min, p.y); y_max = std::max(y_max, p.y);
  }
  const float width = x_max - x_min, eps = 1e-5f * width;
  // A material experiment at equilibrium: CG converges to it in a few seconds of simulated time, where
  // the one-iteration Jacobi solver relaxes a stiff sheet far more slowly (same forces either way).
  auto integrator = make_integrator(IntegratorKind::ConjugateGradient, model, {.cg_tolerance = 1e-4f, .cg_max_iterations = 300});
  const float h = 1.f / 240.f;
  const float ramp = 2.f, settle = 2.f;
  // Volino's kinematic correction (A): the held edges' x position and velocity are imposed after each step.
  for (int s = 0; s * h < ramp + settle; ++s) {
    const float t = std::min(1.f, (s + 1) * h / ramp);
    const float target = x_min + width * (1.f + (stretch - 1.f) * t);
    const float speed = width * (stretch - 1.f) / ramp * (s * h < ramp ? 1.f : 0.f);
    integrator->step(model, state, h);
    for (size_t i = 0; i < model.vertex_count(); ++i) {
      const float x0 = model.rest_position[i].x;
      // Held edges: x imposed, kept in the plane (z = 0), free to slide along y.
      if (x0 < x_min + eps || x0 > x_max - eps) {
        state.position[i].x = x0 < x_min + eps ? x_min : target;
        state.velocity[i].x = x0 < x_min + eps ? 0.f : speed;
        state.position[i].z = 0.f;
        state.velocity[i].z = 0.f;
      }
    }
  }
  PoissonResult r;
  // Width at mid-length: the y extent of the vertices nearest the middle of the pulled square.
  const float mid = x_min + 0.5f * width * stretch, band = 0.06f * width * stretch;
  float lo = 1e9f, hi = -1e9f, z_lo = 1e9f, z_hi = -1e9f;
  for (const auto& p : state.position) {
    r.finite = r.finite && std::isfinite(p.x + p.y + p.z);
    if (std::abs(p.x - mid) < band) {
      lo = std::min(lo, p.y); hi = std::max(hi, p.y);
      z_lo = std::min(z_lo, p.z); z_hi = std::max(z_hi, p.z);
    }
  }
  r.out_of_plane_m = double(z_hi - z_lo);
  r.transverse_strain = double(hi - lo) / double(y_max - y_min) - 1.0;
  r.poisson_ratio = -r.transverse_strain / double(stretch - 1.f);
  return r;
}

}  // namespace

nlohmann::json validate_poisson(uint32_t quads, bool verbose) {
  struct NamedMesh { const char* name; Mesh mesh; };
  const NamedMesh meshes[] = {
      {"regular", make_grid({.width = 0.5f, .height = 0.5f, .columns = quads, .rows = quads})},
      {"irregular", make_irregular({.width = 0.5f, .height = 0.5f, .columns = quads, .rows = quads, .seed = 3})}};
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& nm : meshes)
    for (float stretch : {1.05f, 4.f})
      for (float alpha : {0.f, 0.6f, 1.f, 1.2f}) {
        const PoissonResult r = pull_square(nm.mesh, alpha, stretch, 7);
        if (verbose)
          std::fprintf(stderr, "validate poisson: %-9s alpha %.1f stretch %3.0f%%  poisson ratio %+.3f  out of plane %.4f m\n",
                       nm.name, alpha, 100.f * stretch, r.poisson_ratio, r.out_of_plane_m);
        runs.push_back({{"mesh", nm.name}, {"alpha", alpha}, {"stretch", stretch}, {"poisson_ratio", r.poisson_ratio},
                        {"transverse_strain", r.transverse_strain}, {"out_of_plane_m", r.out_of_plane_m},
                        {"finite", r.finite}});
      }
  auto find = [&](const char* mesh, float alpha, float stretch) {
    for (const auto& r : runs)
      if (r["mesh"] == mesh && std::abs(r["alpha"].get<double>() - alpha) < 1e-3 &&
          std::abs(r["stretch"].get<double>() - stretch) < 1e-3)
        return r;
    return nlohmann::json();
  };
  nlohmann::json checks = nlohmann::json::array();
  for (float stretch : {1.05f, 4.f}) {
    const std::string tag = stretch > 2 ? " (400%)" : " (5%)";
    const double reg0 = find("regular", 0, stretch)["poisson_ratio"], irr0 = find("irregular", 0, stretch)["poisson_ratio"];
    const double reg1 = find("regular", 1, stretch)["poisson_ratio"], irr1 = find("irregular", 1, stretch)["poisson_ratio"];
    const double worst1 = std::max(std::abs(reg1), std::abs(irr1));
    checks.push_back({{"check", "alpha 0 contracts (min over meshes)" + tag}, {"value", std::min(reg0, irr0)},
                      {"bound", ">= 0.05 and >= 2 x |alpha 1|"},
                      {"pass", std::min(reg0, irr0) >= 0.05 && std::min(reg0, irr0) >= 2 * worst1}});
    checks.push_back({{"check", "alpha 0 regular vs irregular differ" + tag}, {"value", std::abs(reg0 - irr0)},
                      {"bound", ">= 0.02"}, {"pass", std::abs(reg0 - irr0) >= 0.02}});
    checks.push_back({{"check", "alpha 1 near-zero Poisson ratio" + tag}, {"value", worst1}, {"bound", "<= 0.1"},
                      {"pass", worst1 <= 0.1}});
  }
  // Buckling: alpha > 1 lets a deformed triangle's system go singular; the sheet then loses its
  // transverse stability. Compared per mesh with the alpha = 1 sheet at the same stretch.
  for (const char* mesh : {"regular", "irregular"}) {
    const double buckle = find(mesh, 1.2f, 4.f)["out_of_plane_m"].get<double>();
    const double flat = find(mesh, 1.f, 4.f)["out_of_plane_m"].get<double>();
    checks.push_back({{"check", std::string("alpha 1.2 buckles transversally (400%, ") + mesh + ")"},
                      {"value", buckle / std::max(flat, 1e-6)},
                      {"bound", ">= 3 x the alpha 1 amplitude"},
                      {"pass", buckle >= 3 * std::max(flat, 1e-6)},
                      // The regular right-triangle grid stays flat at alpha 1.2 (docs/validation.md, validate poisson).
                      {"required", std::string(mesh) == "irregular"}});
  }
  const bool pass = required_checks_pass(checks);
  return {{"experiment", "volino-thalmann 1997 fig. 4"}, {"runs", runs}, {"checks", checks}, {"pass", pass}};
}

}  // namespace weft::lab
