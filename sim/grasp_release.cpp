#include "sim/grasp_release.h"

#include <algorithm>
#include <cmath>

#include "sim/grasp_saturation.h"

namespace weft {

float stored_stretch(int d, const std::array<ElasticSet, kDeviceCount>& sets,
                     const std::array<Tethers, kDeviceCount>& tethers, const std::vector<uint32_t>& fixed,
                     const uint8_t* is_fixed, const glm::vec3* x, const uint8_t* kinematic) {
  const Tethers& t = tethers[d];
  if (!t.active || sets[d].vertex.empty()) return 0.f;
  float most = 0.f;
  for_each_tether_partner(d, sets, fixed, kinematic, is_fixed, [&](uint32_t p, int) {
    uint32_t a;
    float length;
    if (!tether_anchor(t, p, kinematic, is_fixed, a, length) || !(length > 0.f)) return;
    most = std::max(most, (glm::length(x[a] - x[p]) - length) / length);
  });
  return most;
}

int relax_released_motion(const std::array<ElasticSet, kDeviceCount>& sets,
                          const std::array<Tethers, kDeviceCount>& tethers,
                          const std::array<GraspRelease, kDeviceCount>& release, const std::vector<uint32_t>& fixed,
                          const uint8_t* is_fixed, float max_speed, float h, int iterations, const glm::vec3* x,
                          const uint8_t* kinematic, glm::vec3* kinematic_velocity) {
  auto releasing = [&](int d) {
    return release[d].active && release[d].ticks_left > 0 && tethers[d].active && !sets[d].vertex.empty();
  };
  bool any = false;
  for (int d = 0; d < kDeviceCount; ++d) any = any || releasing(d);
  if (!any) return 0;
  std::array<glm::vec3, kDeviceCount> shift{};  // position shift of each releasing patch over the step, m
  auto predicted = [&](uint32_t i) { return x[i] + h * kinematic_velocity[i]; };
  // Pulls anchor a of releasing device d toward p so that their excess over the tether length is
  // (1 - 1/ticks_left) of the excess now; `share` of the correction goes to p's device e.
  auto project = [&](int d, uint32_t p, int e, float share) {
    uint32_t a;
    float length;
    if (!tether_anchor(tethers[d], p, kinematic, is_fixed, a, length)) return;
    const float excess_now = glm::length(x[a] - x[p]) - length;
    const float lmax = length + std::max(0.f, excess_now) * (1.f - 1.f / float(release[d].ticks_left));
    const glm::vec3 gap = predicted(a) + shift[d] - predicted(p) - (e >= 0 ? shift[e] : glm::vec3(0.f));
    pull_gap_within(gap, lmax, share, shift[d], e >= 0 ? &shift[e] : nullptr);
  };
  for (int sweep = 0; sweep < iterations; ++sweep)
    for (int d = 0; d < kDeviceCount; ++d) {
      if (!releasing(d)) continue;
      // A holding hand does not yield to a releasing one; two releasing patches share half and half.
      for_each_tether_partner(d, sets, fixed, kinematic, is_fixed, [&](uint32_t p, int e) {
        const bool both = e >= 0 && releasing(e);
        project(d, p, both ? e : -1, both ? 0.5f : 0.f);
      });
    }
  return apply_patch_shifts(sets, shift, kinematic, is_fixed, h, max_speed, kinematic_velocity);
}

}  // namespace weft
