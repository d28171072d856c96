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
  auto pair = [&](uint32_t p) {
    const float length = t.length[p];
    const uint32_t a = t.anchor[p];
    if (!std::isfinite(length) || !(length > 0.f) || a == p || !kinematic[a] || is_fixed[a]) return;
    most = std::max(most, (glm::length(x[a] - x[p]) - length) / length);
  };
  for (uint32_t p : fixed)
    if (kinematic[p]) pair(p);
  for (int e = 0; e < kDeviceCount; ++e)
    if (e != d)
      for (size_t k = 0; k < sets[e].size(); ++k)
        if (held_core(sets[e], k, kinematic, is_fixed)) pair(sets[e].vertex[k]);
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
    const Tethers& t = tethers[d];
    const float length = t.length[p];
    if (!std::isfinite(length)) return;  // not connected to this patch
    const uint32_t a = t.anchor[p];
    if (a == p || !kinematic[a] || is_fixed[a]) return;
    const float excess_now = glm::length(x[a] - x[p]) - length;
    const float lmax = length + std::max(0.f, excess_now) * (1.f - 1.f / float(release[d].ticks_left));
    const glm::vec3 gap = predicted(a) + shift[d] - predicted(p) - (e >= 0 ? shift[e] : glm::vec3(0.f));
    const float len = glm::length(gap);
    if (!(len > lmax)) return;
    const glm::vec3 correction = (len - lmax) / len * gap;
    shift[d] -= (1.f - share) * correction;
    if (e >= 0) shift[e] += share * correction;
  };
  for (int sweep = 0; sweep < iterations; ++sweep)
    for (int d = 0; d < kDeviceCount; ++d) {
      if (!releasing(d)) continue;
      for (uint32_t p : fixed)
        if (kinematic[p]) project(d, p, -1, 0.f);
      for (int e = 0; e < kDeviceCount; ++e) {
        if (e == d) continue;
        const bool both = releasing(e);  // a holding hand does not yield to a releasing one
        for (size_t k = 0; k < sets[e].size(); ++k)
          if (held_core(sets[e], k, kinematic, is_fixed)) project(d, sets[e].vertex[k], both ? e : -1, both ? 0.5f : 0.f);
      }
    }
  return apply_patch_shifts(sets, shift, kinematic, is_fixed, h, max_speed, kinematic_velocity);
}

}  // namespace weft
