#include "engine/snapshot.h"

#include <algorithm>
#include <cmath>

#include "sim/cloth_model.h"
#include "sim/cloth_state.h"

namespace weft {

SnapshotMesh make_snapshot_mesh(const ClothModel& model) { return {model.triangle, model.material_coord}; }

void ClothSnapshot::resize(size_t vertex_count) {
  position.resize(vertex_count);
  normal.resize(vertex_count);
  strain.resize(vertex_count);
  grasped.resize(vertex_count);
}

void write_snapshot_cloth(const ClothModel& model, const ClothState& state, ClothSnapshot& out) {
  const size_t n = model.vertex_count();
  std::copy(state.position.begin(), state.position.end(), out.position.begin());

  // Vertex normal: sum of the unnormalised face normals around it (area-weighted), then normalised.
  std::fill(out.normal.begin(), out.normal.end(), glm::vec3(0.f));
  for (const auto& t : model.triangle) {
    const glm::vec3& a = state.position[t[0]];
    const glm::vec3 face = glm::cross(state.position[t[1]] - a, state.position[t[2]] - a);
    for (uint32_t v : t) out.normal[v] += face;
  }
  for (auto& nrm : out.normal) {
    const float len = glm::length(nrm);
    nrm = len > 0.f ? nrm / len : glm::vec3(0.f, 0.f, 1.f);
  }

  // Strain over structural edges only (bending links span two edges).
  std::fill(out.strain.begin(), out.strain.end(), -1.f);  // l / l0 - 1 >= -1
  for (size_t e = 0; e < model.edge_count; ++e) {
    const auto [i, j] = model.link[e];
    const float s = glm::length(state.position[j] - state.position[i]) / model.rest_length[e] - 1.f;
    out.strain[i] = std::max(out.strain[i], s);
    out.strain[j] = std::max(out.strain[j], s);
  }

  for (size_t v = 0; v < n; ++v) out.grasped[v] = model.pinned[v] ? uint8_t(4) : uint8_t(0);
}

}  // namespace weft
