#include "sim/tether.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace weft {

void TetherScratch::resize(const ClothModel& model) {
  heap.clear();
  heap.reserve(2 * model.edge_count + model.vertex_count());
  sources.clear();
  sources.reserve(model.vertex_count());
}

void build_tethers(const ClothModel& model, const VertexAdjacency& adjacency, const uint32_t* sources,
                   size_t nsource, TetherScratch& scratch, Tethers& out) {
  const size_t n = model.vertex_count();
  out.anchor.assign(n, 0);  // no allocation once sized
  out.length.assign(n, std::numeric_limits<float>::infinity());
  out.active = nsource > 0;
  auto& heap = scratch.heap;
  heap.clear();
  const auto later = std::greater<std::pair<float, uint32_t>>();  // min-heap on the path length
  for (size_t s = 0; s < nsource; ++s) {
    out.length[sources[s]] = 0.f;
    out.anchor[sources[s]] = sources[s];
    heap.push_back({0.f, sources[s]});
  }
  std::make_heap(heap.begin(), heap.end(), later);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const auto [d, i] = heap.back();
    heap.pop_back();
    if (d > out.length[i]) continue;
    for (uint32_t k = adjacency.offset[i]; k < adjacency.offset[i + 1]; ++k) {
      const uint32_t j = adjacency.neighbour[k];
      // rest length of the edge: structural edges are straight in the rest shape
      const float dj = d + glm::length(model.rest_position[j] - model.rest_position[i]);
      if (dj < out.length[j]) {
        out.length[j] = dj;
        out.anchor[j] = out.anchor[i];
        heap.push_back({dj, j});
        std::push_heap(heap.begin(), heap.end(), later);
      }
    }
  }
}

void straighten_tethers(const ClothModel& model, const FlatPieces& pieces, Tethers& tethers) {
  if (!tethers.active) return;
  for (size_t i = 0; i < tethers.length.size(); ++i) {
    if (!std::isfinite(tethers.length[i]) || !pieces.flat_convex[pieces.piece[i]]) continue;
    tethers.length[i] = glm::length(model.rest_position[i] - model.rest_position[tethers.anchor[i]]);
  }
}

void apply_tethers(const Tethers& tethers, float max_strain, const float* inv_mass, const uint8_t* kinematic,
                   glm::vec3* x, glm::vec3* v, size_t nvert) {
  if (!tethers.active) return;
  const float stretch = 1.f + max_strain;
  for (size_t i = 0; i < nvert; ++i) {
    if (kinematic[i] || inv_mass[i] == 0.f) continue;
    const float lmax = stretch * tethers.length[i];
    const uint32_t a = tethers.anchor[i];
    const glm::vec3 d = x[i] - x[a];
    const float len2 = glm::dot(d, d);
    if (!(len2 > lmax * lmax)) continue;  // also skips vertices without an anchor (infinite length)
    const float len = std::sqrt(len2);
    const glm::vec3 u = d / len;
    x[i] = x[a] + lmax * u;
    const float outward = glm::dot(v[i] - v[a], u);
    if (outward > 0.f) v[i] -= outward * u;
  }
}

}  // namespace weft
