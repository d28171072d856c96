#include "sim/force_field.h"

#include <algorithm>
#include <cmath>

#include "sim/force_kernels.h"

namespace weft {

ForceBuffers::ForceBuffers(const ClothModel& model)
    : force(model.vertex_count()),
      link_jacobian(model.link_count_total()),
      jacobian_sum(model.vertex_count()),
      drag_coefficient(model.vertex_count(), 0.f),
      normal(model.vertex_count()),
      tension(model.link_count_total(), 0.f) {}

void compute_vertex_normals(const ClothModel& model, const glm::vec3* x, glm::vec3* normal_out) {
  const size_t n = model.vertex_count();
  std::fill(normal_out, normal_out + n, glm::vec3(0.f));
  for (const auto& t : model.triangle) {
    const glm::vec3 an = glm::cross(x[t[1]] - x[t[0]], x[t[2]] - x[t[0]]);  // twice the area, normal
    normal_out[t[0]] += an;
    normal_out[t[1]] += an;
    normal_out[t[2]] += an;
  }
  for (size_t i = 0; i < n; ++i) {
    const float len = glm::length(normal_out[i]);
    normal_out[i] = len > 0.f ? normal_out[i] / len : glm::vec3(0.f, 0.f, 1.f);
  }
}

// Volino triangles write the tension of their edges; springs compute it inline in the link loop.
static void accumulate_volino_tensions(const ClothModel& model, const glm::vec3* x, float* tension) {
  std::fill(tension, tension + model.edge_count, 0.f);
  const Material& m = model.material;
  for (size_t t = 0; t < model.triangle_count(); ++t) {
    const auto& tri = model.triangle[t];
    std::array<float, 3> l, inv_mass;
    for (int i = 0; i < 3; ++i) {
      l[i] = glm::length(x[tri[(i + 2) % 3]] - x[tri[(i + 1) % 3]]);
      inv_mass[i] = model.inv_mass[tri[i]];
    }
    if (!(l[0] > 0.f && l[1] > 0.f && l[2] > 0.f)) continue;  // collapsed triangle: its springs still act
    const auto F = volino_tensions(l, model.triangle_rest_edge[t], model.triangle_strength[t], inv_mass, m.alpha,
                                   m.volino_general_mass);
    for (int i = 0; i < 3; ++i) tension[model.triangle_edge[t][i]] += F[i];
  }
}

void evaluate_forces(const ClothModel& model, const glm::vec3* x, const glm::vec3* v, ForceBuffers& out,
                     const ForceOptions& options) {
  const Material& m = model.material;
  const size_t n = model.vertex_count(), nlink = model.link_count_total();
  glm::vec3* f = out.force.data();
  for (size_t i = 0; i < n; ++i) f[i] = model.mass[i] * m.gravity;
  if (options.jacobian) std::fill(out.jacobian_sum.begin(), out.jacobian_sum.end(), Sym3{});

  const bool volino = m.stretch_model == StretchModel::Volino;
  if (volino) accumulate_volino_tensions(model, x, out.tension.data());
  const size_t first_spring = volino ? model.edge_count : 0;

  const float cd = m.damping, hv = options.viscosity_h;
  const auto* link = model.link.data();
  const float* k = model.stiffness.data();
  const float* l0 = model.rest_length.data();
  float* tension = out.tension.data();
  Sym3* jl = out.link_jacobian.data();
  Sym3* js = out.jacobian_sum.data();
  for (size_t l = 0; l < nlink; ++l) {
    const uint32_t i = link[l][0], j = link[l][1];
    const glm::vec3 d = x[j] - x[i];
    const float len = std::sqrt(glm::dot(d, d));
    const glm::vec3 u = len > 1e-12f ? d / len : glm::vec3(0.f);
    if (l >= first_spring) tension[l] = k[l] * (len - l0[l]);  // Kang & Cho Eq. 1
    const glm::vec3 dv = v[j] - v[i];
    glm::vec3 fl = tension[l] * u + cd * dv;  // spring + relative damping (Kang & Cho Eq. 26)
    if (options.jacobian) {
      const Sym3 J = link_jacobian(k[l], tension[l], u, len);
      jl[l] = J;
      js[i] += J;
      js[j] += J;
      if (hv > 0.f) fl += hv * (J * dv);  // Kang & Cho Eq. 13
    }
    f[i] += fl;
    f[j] -= fl;
  }

  if (m.drag > 0.f || m.lift > 0.f) {
    compute_vertex_normals(model, x, out.normal.data());
    for (size_t i = 0; i < n; ++i) {
      const AirForce air = air_force(out.normal[i], v[i] - m.wind, model.vertex_area[i], m.drag, m.lift);
      f[i] += air.force;
      out.drag_coefficient[i] = air.drag_coefficient;
    }
  }
}

Energy compute_energy(const ClothModel& model, const glm::vec3* x, const glm::vec3* v) {
  Energy e;
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    e.kinetic += 0.5 * model.mass[i] * double(glm::dot(v[i], v[i]));
    e.gravity -= model.mass[i] * double(glm::dot(model.material.gravity, x[i]));
  }
  for (size_t l = 0; l < model.link_count_total(); ++l) {
    const double s = glm::length(x[model.link[l][1]] - x[model.link[l][0]]) - model.rest_length[l];
    e.elastic += 0.5 * model.stiffness[l] * s * s;
  }
  return e;
}

}  // namespace weft
