#include "sim/cloth_model.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace weft {

float ClothModel::total_mass() const { return std::accumulate(mass.begin(), mass.end(), 0.f); }

std::string validate_material(const Material& m) {
  auto finite = [](float v) { return std::isfinite(v); };
  if (!finite(m.areal_density) || m.areal_density <= 0.f) return "areal_density must be positive";
  if (!finite(m.total_mass) || m.total_mass < 0.f) return "total_mass must be zero (unused) or positive";
  if (!finite(m.stretch_stiffness) || m.stretch_stiffness < 0.f) return "stretch_stiffness must be >= 0";
  if (!finite(m.bend_stiffness) || m.bend_stiffness < 0.f) return "bend_stiffness must be >= 0";
  if (!finite(m.young_modulus) || m.young_modulus < 0.f) return "young_modulus must be >= 0";
  if (!finite(m.alpha) || m.alpha < 0.f || m.alpha > 1.2f) return "alpha must lie in [0, 1.2]";
  if (!finite(m.damping) || m.damping < 0.f) return "damping must be >= 0";
  if (!finite(m.drag) || m.drag < 0.f) return "drag must be >= 0";
  if (!finite(m.lift) || m.lift < 0.f) return "lift must be >= 0";
  for (int k = 0; k < 3; ++k)
    if (!finite(m.wind[k]) || !finite(m.gravity[k])) return "wind and gravity must be finite";
  if (m.stretch_model == StretchModel::WeftWarp) {
    const WeaveMaterial& w = m.weave;
    if (w.weft.empty() || w.warp.empty() || w.shear.empty()) return "weave: weft, warp and shear curves are required";
    for (float x : {w.weft_viscosity, w.warp_viscosity, w.shear_viscosity, w.weft_bending, w.warp_bending})
      if (!finite(x) || x < 0.f) return "weave: viscosities and bending rigidities must be >= 0";
    if (!finite(w.weft_rest_curvature) || !finite(w.warp_rest_curvature) || !finite(w.angle_deg))
      return "weave: rest curvatures and angle must be finite";
    if (w.plasticity.enabled && !(w.plasticity.yield_curvature > 0.f && finite(w.plasticity.yield_curvature) &&
                                  w.plasticity.relaxation_time > 0.f && finite(w.plasticity.relaxation_time)))
      return "weave: plasticity needs a positive yield curvature and relaxation time";
    const PlasticityParams& pl = w.plasticity;
    if (pl.in_plane && !(pl.yield_strain > 0.f && finite(pl.yield_strain) && pl.shear_yield_strain > 0.f &&
                         finite(pl.shear_yield_strain) && pl.strain_relaxation_time > 0.f && finite(pl.strain_relaxation_time)))
      return "weave: in-plane plasticity needs positive yield strains and strain relaxation time";
  }
  return {};
}

ClothModel build_cloth_model(const Mesh& mesh, const Material& material, const std::vector<uint32_t>& pins,
                             const std::vector<CreaseLine>& creases) {
  if (auto err = validate_mesh(mesh); !err.empty()) throw std::invalid_argument("mesh: " + err);
  if (auto err = validate_material(material); !err.empty()) throw std::invalid_argument("material: " + err);
  if (!creases.empty() && material.stretch_model != StretchModel::WeftWarp)
    throw std::invalid_argument("crease lines need the weft_warp material (they set its bending hinges' rest angles)");

  ClothModel model;
  model.material = material;
  model.creases = creases;
  model.topology = build_topology(mesh);
  const Topology& topo = model.topology;
  const size_t nvert = mesh.vertex_count(), ntri = mesh.triangle_count();

  model.rest_position = mesh.positions;
  model.material_coord = mesh.material;
  model.triangle = mesh.triangles;

  // Lumped masses and areas: a third of each triangle's area to each corner.
  model.rest_area.resize(ntri);
  model.vertex_area.assign(nvert, 0.f);
  double total_area = 0;
  for (size_t t = 0; t < ntri; ++t) {
    model.rest_area[t] = triangle_area(mesh, t);
    total_area += model.rest_area[t];
    for (uint32_t v : mesh.triangles[t]) model.vertex_area[v] += model.rest_area[t] / 3.f;
  }
  const float density = material.total_mass > 0.f ? float(material.total_mass / total_area) : material.areal_density;
  model.mass.resize(nvert);
  model.inv_mass.resize(nvert);
  for (size_t i = 0; i < nvert; ++i) {
    if (!(model.vertex_area[i] > 0.f)) {
      std::ostringstream err;
      err << "mesh: vertex " << i + 1 << " belongs to no triangle";
      throw std::invalid_argument(err.str());
    }
    model.mass[i] = model.vertex_area[i] * density;
    model.inv_mass[i] = 1.f / model.mass[i];
  }

  model.pinned.assign(nvert, 0);
  for (uint32_t p : pins) {
    if (p >= nvert) throw std::invalid_argument("pin refers to vertex " + std::to_string(p + 1) + ", mesh has " +
                                                std::to_string(nvert));
    model.pinned[p] = 1;
  }

  // Links: structural edges, then bending pairs.
  model.edge_count = topo.edges.size();
  model.bend_count = topo.bend_pairs.size();
  const size_t nlink = model.edge_count + model.bend_count;
  model.link.reserve(nlink);
  for (const auto& e : topo.edges) model.link.push_back(e);
  for (const auto& b : topo.bend_pairs) model.link.push_back(b);
  for (const auto& l : model.link) {
    model.link_first.push_back(l[0]);
    model.link_second.push_back(l[1]);
  }
  model.rest_length.resize(nlink);
  model.stiffness.assign(nlink, 0.f);
  model.link_count.assign(nvert, 0);
  for (size_t l = 0; l < nlink; ++l) {
    const auto [i, j] = model.link[l];
    model.rest_length[l] = glm::length(mesh.positions[j] - mesh.positions[i]);
    if (!(model.rest_length[l] > 0.f)) throw std::invalid_argument("mesh: two linked vertices coincide");
    ++model.link_count[i];
    ++model.link_count[j];
  }
  auto scaled = [&](float value, float l0) {
    return material.stiffness_scale == StiffnessScale::PerRestLength ? value / l0 : value;
  };
  for (size_t l = model.edge_count; l < nlink; ++l) model.stiffness[l] = scaled(material.bend_stiffness, model.rest_length[l]);

  // Triangles: rest edges and Volino strength factors R_i / L_i. R_i = Y h_i / 2 = Y A / L_i makes
  // the alpha = 0 limit the usual area-weighted edge spring k = Y A / L^2 per adjacent triangle.
  model.triangle_edge = topo.triangle_edges;
  model.triangle_rest_edge.resize(ntri);
  model.triangle_strength.resize(ntri);
  for (size_t t = 0; t < ntri; ++t)
    for (int k = 0; k < 3; ++k) {
      const float L = model.rest_length[model.triangle_edge[t][k]];
      model.triangle_rest_edge[t][k] = L;
      model.triangle_strength[t][k] = material.young_modulus * model.rest_area[t] / (L * L);
    }

  if (material.stretch_model == StretchModel::Springs) {
    for (size_t l = 0; l < model.edge_count; ++l) model.stiffness[l] = scaled(material.stretch_stiffness, model.rest_length[l]);
  } else if (material.stretch_model == StretchModel::WeftWarp) {
    // The weave triangles and hinges carry stretch, shear and bending (weft_warp_forces.h); the links
    // keep only the relative damping and hold the Jacobian blocks.
    std::fill(model.stiffness.begin(), model.stiffness.end(), 0.f);
    model.weft_warp = build_weft_warp_model(mesh, topo, material.weave, creases);
  } else {
    for (size_t t = 0; t < ntri; ++t)
      for (int k = 0; k < 3; ++k) model.stiffness[model.triangle_edge[t][k]] += model.triangle_strength[t][k];
  }
  return model;
}

}  // namespace weft
