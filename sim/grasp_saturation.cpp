#include "sim/grasp_saturation.h"

#include <algorithm>
#include <cmath>

namespace weft {

float free_edge_strain(const ClothModel& model, const glm::vec3* x, const uint8_t* kinematic) {
  float most = 0.f;
  for (size_t e = 0; e < model.edge_count; ++e) {
    const uint32_t i = model.link[e][0], j = model.link[e][1];
    if (kinematic[i] && kinematic[j]) continue;
    most = std::max(most, glm::length(x[j] - x[i]) / model.rest_length[e] - 1.f);
  }
  return most;
}

int saturate_held_motion(const std::array<ElasticSet, kDeviceCount>& sets,
                          const std::array<Tethers, kDeviceCount>& tethers, const std::vector<uint32_t>& fixed,
                          const uint8_t* is_fixed, float max_strain, float max_speed, float h, int iterations, const glm::vec3* x,
                          const uint8_t* kinematic, glm::vec3* kinematic_velocity, bool at_limit) {
  std::array<glm::vec3, kDeviceCount> shift{};  // position shift of each device's patch over the step, m
  bool any = false;
  for (int d = 0; d < kDeviceCount; ++d) any = any || (tethers[d].active && !sets[d].vertex.empty());
  if (!any) return 0;
  const float stretch = 1.f + max_strain;
  // End-of-step position of a kinematic vertex, before the shifts.
  auto predicted = [&](uint32_t i) { return x[i] + h * kinematic_velocity[i]; };
  // Pulls device d's anchor for p back within lmax of p; `share` of the excess is left to p's device e.
  auto project = [&](int d, uint32_t p, int e, float share) {
    uint32_t a;
    float length;
    if (!tether_anchor(tethers[d], p, kinematic, is_fixed, a, length)) return;
    const glm::vec3 ya = predicted(a) + shift[d];
    const glm::vec3 yp = predicted(p) + (e >= 0 ? shift[e] : glm::vec3(0.f));
    const float lmax = at_limit ? std::min(stretch * length, glm::length(x[a] - x[p])) : stretch * length;
    pull_gap_within(ya - yp, lmax, share, shift[d], e >= 0 ? &shift[e] : nullptr);
  };
  for (int sweep = 0; sweep < iterations; ++sweep)
    for (int d = 0; d < kDeviceCount; ++d) {
      if (!tethers[d].active || sets[d].vertex.empty()) continue;
      for_each_tether_partner(d, sets, fixed, kinematic, is_fixed,
                              [&](uint32_t p, int e) { project(d, p, e, e >= 0 ? 0.5f : 0.f); });
    }
  return apply_patch_shifts(sets, shift, kinematic, is_fixed, h, max_speed, kinematic_velocity);
}

int apply_patch_shifts(const std::array<ElasticSet, kDeviceCount>& sets, const std::array<glm::vec3, kDeviceCount>& shift,
                       const uint8_t* kinematic, const uint8_t* is_fixed, float h, float max_speed,
                       glm::vec3* kinematic_velocity) {
  int moved = 0;
  for (int d = 0; d < kDeviceCount; ++d) {
    if (shift[d] == glm::vec3(0.f)) continue;
    ++moved;
    const glm::vec3 dv = cap_speed(shift[d] / h, max_speed);
    for (size_t k = 0; k < sets[d].size(); ++k)
      if (held_core(sets[d], k, kinematic, is_fixed)) kinematic_velocity[sets[d].vertex[k]] += dv;
  }
  return moved;
}

}  // namespace weft
