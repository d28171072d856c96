#include "sim/grasp.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace weft {

float falloff_weight(float d, float radius, const GraspParams& params) {
  if (d > radius) return 0.f;
  const float core = params.core_fraction * radius;
  if (params.falloff == Falloff::Uniform || d <= core || radius <= core) return 1.f;
  float s = (d - core) / (radius - core);  // 0 at the core's edge, 1 at the radius
  if (params.falloff == Falloff::Smooth) s = s * s * (3.f - 2.f * s);
  return 1.f - s * (1.f - params.min_weight);
}

VertexAdjacency build_adjacency(const ClothModel& model) {
  const size_t n = model.vertex_count();
  VertexAdjacency adj;
  adj.offset.assign(n + 1, 0);
  for (size_t e = 0; e < model.edge_count; ++e) {
    ++adj.offset[model.link[e][0] + 1];
    ++adj.offset[model.link[e][1] + 1];
  }
  for (size_t i = 0; i < n; ++i) adj.offset[i + 1] += adj.offset[i];
  adj.neighbour.resize(adj.offset[n]);
  std::vector<uint32_t> fill(adj.offset.begin(), adj.offset.end() - 1);
  for (size_t e = 0; e < model.edge_count; ++e) {
    const uint32_t a = model.link[e][0], b = model.link[e][1];
    adj.neighbour[fill[a]++] = b;
    adj.neighbour[fill[b]++] = a;
  }
  return adj;
}

float nearest_distance(const glm::vec3* x, size_t n, const glm::vec3& p) {
  float best = INFINITY;
  for (size_t i = 0; i < n; ++i) best = std::min(best, glm::dot(x[i] - p, x[i] - p));
  return std::sqrt(best);
}

float mean_edge_length(const ClothModel& model) {
  double sum = 0;
  for (size_t e = 0; e < model.edge_count; ++e) sum += model.rest_length[e];
  return model.edge_count ? float(sum / double(model.edge_count)) : 0.f;
}

size_t select_grasp(const ClothModel& model, const VertexAdjacency& adjacency, const glm::vec3* x, const Pose& pose,
                    float radius_in, const GraspParams& params, GraspScratch& scratch, ElasticSet& out,
                    const uint8_t* excluded, float extra_reach) {
  out.clear();
  const size_t n = model.vertex_count();
  uint32_t nearest = 0;
  float best = std::numeric_limits<float>::infinity();
  for (size_t i = 0; i < n; ++i) {
    const glm::vec3 d = x[i] - pose.position;
    const float d2 = glm::dot(d, d);
    if (d2 < best) { best = d2; nearest = uint32_t(i); }
  }
  const float reach = catch_radius(radius_in, params) + extra_reach;
  if (n == 0 || !(best <= reach * reach)) return 0;
  const float radius = std::max(radius_in, params.min_patch_edges * mean_edge_length(model));

  const glm::vec3 centre = x[nearest];
  scratch.queue.clear();
  scratch.queue.push_back(nearest);
  scratch.visited[nearest] = 1;
  for (size_t head = 0; head < scratch.queue.size(); ++head) {
    const uint32_t i = scratch.queue[head];
    const float w = falloff_weight(glm::length(x[i] - centre), radius, params);
    if (!(excluded && excluded[i])) {
      out.vertex.push_back(i);
      out.weight.push_back(i == nearest ? 1.f : w);
      out.offset.push_back(pose.inverse_transform_point(x[i]));
    }
    for (uint32_t k = adjacency.offset[i]; k < adjacency.offset[i + 1]; ++k) {
      const uint32_t j = adjacency.neighbour[k];
      if (scratch.visited[j] || glm::length(x[j] - centre) > radius) continue;
      scratch.visited[j] = 1;
      scratch.queue.push_back(j);
    }
  }
  for (uint32_t i : scratch.queue) scratch.visited[i] = 0;
  return out.size();
}

}  // namespace weft
