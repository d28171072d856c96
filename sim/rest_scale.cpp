#include "sim/rest_scale.h"

#include <algorithm>

#include "sim/weave_arrays.h"

namespace weft {

size_t scale_in_brush(const ClothModel& model, const glm::vec3* x, const glm::vec3& centre, float radius, float factor,
                      std::vector<float>& triangle_scale) {
  factor = std::clamp(factor, kRestScaleMin, kRestScaleMax);
  size_t touched = 0;
  for (size_t t = 0; t < model.triangle_count(); ++t) {
    const auto& tri = model.triangle[t];
    const glm::vec3 c = (x[tri[0]] + x[tri[1]] + x[tri[2]]) / 3.f;
    if (!(glm::length(c - centre) <= radius)) continue;
    triangle_scale[t] = std::clamp(triangle_scale[t] * factor, kRestScaleMin, kRestScaleMax);
    ++touched;
  }
  return touched;
}

void apply_rest_scale(ClothModel& model, const std::vector<float>& scale) {
  rescale_rest_shape(model, std::vector<float>(scale.size(), 1.f), scale);
}

void rescale_rest_shape(ClothModel& model, const std::vector<float>& from, const std::vector<float>& to) {
  const Topology& topo = model.topology;
  const Material& mat = model.material;
  auto edge_scale = [&](const std::vector<float>& scale, size_t e) {
    float sum = 0.f;
    int count = 0;
    for (int32_t t : topo.edge_triangles[e])
      if (t >= 0) sum += scale[t], ++count;
    return count ? sum / float(count) : 1.f;
  };
  auto edge_ratio = [&](size_t e) { return edge_scale(to, e) / edge_scale(from, e); };
  auto per_length = [&](float value, float l0) {
    return mat.stiffness_scale == StiffnessScale::PerRestLength ? value / l0 : value;
  };
  for (size_t l = 0; l < model.link_count_total(); ++l) {
    const bool bend = l >= model.edge_count;
    const float f = edge_ratio(bend ? topo.bend_edge[l - model.edge_count] : l);
    if (f == 1.f) continue;
    model.rest_length[l] *= f;
    if (bend) model.stiffness[l] = per_length(mat.bend_stiffness, model.rest_length[l]);
    else if (mat.stretch_model == StretchModel::Springs) model.stiffness[l] = per_length(mat.stretch_stiffness, model.rest_length[l]);
  }
  // Volino triangles: a uniformly scaled rest triangle; R_i / L_i = Y A / L^2 does not change.
  for (size_t t = 0; t < model.triangle_count(); ++t) {
    const float f = to[t] / from[t];
    if (f == 1.f) continue;
    for (float& L : model.triangle_rest_edge[t]) L *= f;
    model.rest_area[t] *= f * f;
  }
  WeftWarpModel& w = model.weft_warp;
  if (!w.active()) return;
  bool any = false;
  for (size_t t = 0; t < w.triangle_count(); ++t) {
    const float f = to[t] / from[t];
    if (f == 1.f) continue;
    any = true;
    for (int k = 0; k < 3; ++k) w.ru[t][k] /= f, w.rv[t][k] /= f;  // weave coordinates stretch with the rest shape
    w.area[t] *= f * f;
  }
  // A hinge's unit angle bends its edge's rest length over a scaled area: curvature 3 |e| / (A1 + A2) ~ 1 / f.
  for (size_t h = 0; h < w.hinge_count(); ++h) {
    const uint32_t edge = w.hinge_link[h][0];  // pair (0, 1), the edge itself: edge links come first
    if (edge < model.edge_count) w.curvature_per_angle[h] /= edge_ratio(edge);
  }
  if (any) w.arrays = make_weave_triangle_arrays(model.triangle, w.ru, w.rv, w.pair_link, mat.weave);
}

}  // namespace weft
