#include "sim/overshoot_relaxation.h"

#include <algorithm>
#include <cstring>

#include "sim/cloth_model.h"
#include "sim/contact_filter.h"
#include "sim/freed_relaxation.h"

namespace weft {

void OvershootRelaxation::resize(size_t vertex_count, size_t link_count) {
  v_start.assign(vertex_count, glm::vec3(0.f));
  in_set.assign(vertex_count, 0);
  vertices.reserve(vertex_count);
  links.reserve(link_count);
  v_entry.reserve(vertex_count);
  x_solved.reserve(vertex_count);
}

void note_solve_start(const glm::vec3* v, size_t vertex_count, OvershootRelaxation& r) {
  if (r.v_start.size() == vertex_count) std::memcpy(r.v_start.data(), v, vertex_count * sizeof(glm::vec3));
}

size_t relax_overshoot(const ClothModel& model, const std::vector<uint32_t>& adjacency_offset,
                       const std::vector<uint32_t>& adjacency_neighbour, const uint8_t* kinematic,
                       const ContactFilter* filter, const glm::vec3* x0, float h, int sweeps, glm::vec3* x, glm::vec3* v,
                       OvershootRelaxation& r) {
  // The spring models' energy is their links'; the weft/warp triangles' is not (relax_freed's potential).
  if (model.weft_warp.active() || r.v_start.size() != model.vertex_count()) return 0;
  auto movable = [&](uint32_t i) {
    if (kinematic[i] || model.inv_mass[i] == 0.f) return false;
    return !(filter && filter->entry_of_vertex.size() > i && filter->entry_of_vertex[i] != ContactFilter::kNone);
  };
  // Only within kOvershootAnchorRings links of what holds the cloth (a hand's or tracker's patch, a pin):
  // see the header.
  auto anchor = [&](uint32_t j) { return kinematic[j] || model.inv_mass[j] == 0.f; };
  auto near_anchor = [&](auto&& self, uint32_t i, int rings) -> bool {
    for (uint32_t n = adjacency_offset[i]; n < adjacency_offset[i + 1]; ++n) {
      const uint32_t j = adjacency_neighbour[n];
      if (anchor(j) || (rings > 1 && self(self, j, rings - 1))) return true;
    }
    return false;
  };
  r.vertices.clear();
  auto add = [&](uint32_t i) {
    if (r.in_set[i]) return;
    r.in_set[i] = 1;
    r.vertices.push_back(i);
  };
  for (size_t l = 0; l < model.edge_count; ++l) {
    const uint32_t a = model.link[l][0], b = model.link[l][1];
    const float rest = model.rest_length[l];
    const float start = std::max(glm::length(x0[b] - x0[a]), rest);
    if (!(glm::length(x[b] - x[a]) > start + kOvershootStrain * rest)) continue;
    if (movable(a) && near_anchor(near_anchor, a, kOvershootAnchorRings)) add(a);
    if (movable(b) && near_anchor(near_anchor, b, kOvershootAnchorRings)) add(b);
  }
  const size_t overshot = r.vertices.size();
  if (overshot == 0) return 0;
  // Their neighbours too: they hold the overshot vertex where the solve left them otherwise (two rings:
  // 7-14 clamps against one ring's 7, `weft stress --seeds 2`).
  for (size_t k = 0; k < overshot; ++k) {
    const uint32_t i = r.vertices[k];
    for (uint32_t n = adjacency_offset[i]; n < adjacency_offset[i + 1]; ++n) add(adjacency_neighbour[n]);
  }
  const bool relax = r.vertices.size() <= kOvershootMaxVertices;
  if (relax) {
    r.links.clear();
    for (uint32_t l = 0; l < model.link_count_total(); ++l)
      if (r.in_set[model.link[l][0]] || r.in_set[model.link[l][1]]) r.links.push_back(l);
    r.v_entry.clear();
    for (uint32_t i : r.vertices) r.v_entry.push_back(r.v_start[i]);
  }
  for (uint32_t i : r.vertices) r.in_set[i] = 0;
  if (!relax) return overshot;
  // v_start has served (v_entry): it keeps the solve's velocities now.
  r.x_solved.clear();
  for (uint32_t i : r.vertices) r.v_start[i] = v[i], r.x_solved.push_back(x[i]);
  // The links' damping as the solve has it: without it the relaxed vertices kept 11 clamps, with it 7.
  relax_freed(model, r.vertices, r.links, kinematic, filter, x0, r.v_entry.data(), h, sweeps, x, v, /*damped=*/true);
  // It takes back what the solve threw; a vertex it would speed up (a neighbour drawn after the thrown one,
  // or one a palm pushes: a clamp in `a palm that comes down onto a hanging cloth's corner ...`) keeps the
  // solve's result.
  for (size_t k = 0; k < r.vertices.size(); ++k) {
    const uint32_t i = r.vertices[k];
    if (glm::dot(v[i], v[i]) > glm::dot(r.v_start[i], r.v_start[i])) v[i] = r.v_start[i], x[i] = r.x_solved[k];
  }
  return overshot;
}

}  // namespace weft
