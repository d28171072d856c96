#include "lab/tensile_test.h"

#include <algorithm>
#include <cmath>

#include "lab/static_equilibrium.h"
#include "sim/block_system.h"

namespace weft::lab {

Material paper_tensile_material(Membrane membrane) {
  std::vector<float> e, s;
  for (int k = -16; k <= 16; ++k) {
    const float x = 0.05f * float(k);
    e.push_back(x);
    s.push_back(100.f * x + 1000.f * x * x * x);
  }
  Material m;
  m.stretch_model = StretchModel::WeftWarp;
  m.weave.membrane = membrane;
  m.weave.weft = StressCurve::from_points(e, s);
  m.weave.warp = m.weave.weft;
  m.weave.shear = m.weave.weft.scaled(0.5f);
  m.damping = 0.f;
  return m;
}

double homogeneous_tensile_force(const WeaveMaterial& w, double theta, double strain) {
  // isotropic membrane: principal stretches (1 + e, 1), the curve itself in every direction
  if (w.membrane == Membrane::Isotropic) return double(w.weft(float(strain)).stress);
  const double l = 1.0 + strain, c = std::cos(theta), s = std::sin(theta);
  // U = F u, V = F v with u = (c, s), v = (-s, c), F = diag(l, 1); S = U + V, D = U - V
  const double nu = std::sqrt(l * l * c * c + s * s), nv = std::sqrt(l * l * s * s + c * c);
  const double ns = std::sqrt(l * l * (c - s) * (c - s) + (s + c) * (s + c));
  const double nd = std::sqrt(l * l * (c + s) * (c + s) + (s - c) * (s - c));
  const double e_uv = (ns - nd) / std::sqrt(2.0);
  const double d_uu = l * c * c / nu, d_vv = l * s * s / nv;
  const double d_uv = (l * (c - s) * (c - s) / ns - l * (c + s) * (c + s) / nd) / std::sqrt(2.0);
  return double(w.weft(float(nu - 1)).stress) * d_uu + double(w.warp(float(nv - 1)).stress) * d_vv +
         double(w.shear(float(e_uv)).stress) * d_uv;
}

std::vector<TensilePoint> run_tensile_test(const Mesh& sample, Material material, float angle_deg,
                                           const std::vector<double>& strains) {
  material.stretch_model = StretchModel::WeftWarp;
  material.weave.angle_deg = angle_deg;
  material.gravity = glm::vec3(0.f);
  material.drag = material.lift = 0.f;
  material.weave.plasticity.enabled = false;
  material.weave.plasticity.in_plane = false;  // the tensile curves are the elastic ones
  float x_min = 1e30f, x_max = -1e30f, y_min = 1e30f, y_max = -1e30f;
  for (const auto& p : sample.positions) {
    x_min = std::min(x_min, p.x); x_max = std::max(x_max, p.x);
    y_min = std::min(y_min, p.y); y_max = std::max(y_max, p.y);
  }
  const float width = x_max - x_min, height = y_max - y_min, eps = 1e-5f * width;
  std::vector<uint32_t> clamped;
  for (uint32_t i = 0; i < sample.vertex_count(); ++i)
    if (sample.positions[i].x < x_min + eps || sample.positions[i].x > x_max - eps) clamped.push_back(i);
  const ClothModel model = build_cloth_model(sample, material, clamped);
  ClothState state = make_rest_state(model);
  ForceBuffers forces(model);
  BlockSystem system(model);
  std::vector<glm::vec3> scratch;
  std::vector<TensilePoint> out;
  for (double e : strains) {
    // clamps: the right edge at x_min + width (1 + e); a uniform stretch as Newton's first guess
    for (size_t i = 0; i < model.vertex_count(); ++i) {
      const glm::vec3 p0 = model.rest_position[i];
      state.position[i] = glm::vec3(x_min + (p0.x - x_min) * float(1 + e), p0.y, p0.z);
    }
    // Converged when no free vertex carries more than 1e-4 of the pull (the float round-off floor is
    // about 1e-5 of it): that residual changes the measured force by far less than 0.01 %.
    EquilibriumOptions o;
    o.force_scale = std::max(1e-9f, std::fabs(float(homogeneous_tensile_force(material.weave, glm::radians(double(angle_deg)), e))) * height);
    o.tolerance = 1e-4f;
    const EquilibriumResult r = solve_static_equilibrium(model, state, forces, system, o, scratch);
    TensilePoint p;
    p.strain = e;
    double pull = 0;
    for (uint32_t i : clamped)
      if (model.rest_position[i].x > x_max - eps) pull -= double(forces.force[i].x);
    p.force_per_width = pull / double(height);
    p.homogeneous = homogeneous_tensile_force(material.weave, glm::radians(double(angle_deg)), e);
    p.newton_iterations = r.newton_iterations;
    p.converged = r.converged;
    out.push_back(p);
  }
  return out;
}

}  // namespace weft::lab
