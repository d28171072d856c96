#include "engine/snapshot_interpolation.h"

#include <algorithm>

namespace weft {

double interpolate_snapshot(SnapshotBuffer& buffer, double t, ClothSnapshot& out) {
  buffer.update();
  if (!buffer.has_value()) return -1;
  const ClothSnapshot& s = buffer.read_buffer();
  const ClothSnapshot* prev = buffer.history(1);
  double a = 1;
  if (prev && s.sim_time > prev->sim_time) a = std::clamp((t - prev->sim_time) / (s.sim_time - prev->sim_time), 0.0, 1.0);
  // Everything but the blended arrays is the newest's (copy-assign reuses out's storage: no allocation).
  out.tick = s.tick;
  out.hands = s.hands;
  out.trackers = s.trackers;
  out.solids = s.solids;
  out.solid_count = s.solid_count;
  out.solids_left_out = s.solids_left_out;
  out.stats = s.stats;
  out.grasped = s.grasped;
  out.strain = s.strain;
  // A new topology (an edit) is copied once, not per frame; across it there is nothing to blend.
  if (out.topology.generation != s.topology.generation || out.topology.triangles.size() != s.topology.triangles.size())
    out.topology = s.topology;
  if (!prev || a >= 1.0 || prev->topology.generation != s.topology.generation ||
      prev->position.size() != s.position.size()) {
    out.position = s.position;
    out.normal = s.normal;
    out.sim_time = s.sim_time;
    return s.sim_time;
  }
  const float w = float(a);
  out.position.resize(s.position.size());
  out.normal.resize(s.normal.size());
  for (size_t i = 0; i < s.position.size(); ++i) {
    out.position[i] = glm::mix(prev->position[i], s.position[i], w);
    const glm::vec3 n = glm::mix(prev->normal[i], s.normal[i], w);
    const float len = glm::length(n);
    out.normal[i] = len > 1e-12f ? n / len : s.normal[i];
  }
  // Moving colliders and rigid boxes blend with the cloth they touch (the same solids in the same order
  // in both, unless one was added in between).
  if (prev->solid_count == s.solid_count)
    for (uint32_t k = 0; k < s.solid_count; ++k) {
      out.solids[k].position = glm::mix(prev->solids[k].position, s.solids[k].position, w);
      out.solids[k].orientation = glm::slerp(prev->solids[k].orientation, s.solids[k].orientation, w);
    }
  out.sim_time = prev->sim_time + a * (s.sim_time - prev->sim_time);
  return out.sim_time;
}

}  // namespace weft
