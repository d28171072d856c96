#include "sim/held_clearance.h"

#include "sim/grasp_saturation.h"

namespace weft {

int clear_held_of_colliders(const std::array<ElasticSet, kDeviceCount>& sets, const std::vector<Collider>& colliders,
                            const uint8_t* is_fixed, float thickness, float h, const glm::vec3* x,
                            const uint8_t* kinematic, glm::vec3* kinematic_velocity,
                            std::array<glm::vec3, kDeviceCount>& shift_out) {
  // Three rounds: a patch on a box's edge or corner is pushed out of one face, then of the next.
  constexpr int kRounds = 3;
  int moved = 0;
  for (int d = 0; d < kDeviceCount; ++d) {
    const ElasticSet& set = sets[d];
    glm::vec3& shift = shift_out[d];
    shift = glm::vec3(0.f);
    for (int round = 0; round < kRounds; ++round) {
      float deepest = 0.f;
      glm::vec3 push(0.f);
      for (size_t k = 0; k < set.size(); ++k) {
        if (!held_core(set, k, kinematic, is_fixed)) continue;
        const uint32_t i = set.vertex[k];
        const glm::vec3 p = x[i] + h * kinematic_velocity[i] + shift;
        for (const Collider& c : colliders) {
          if (!clears_held_patches(c)) continue;
          glm::vec3 n;
          const float depth = thickness - collider_distance(c, p, n);
          if (depth > deepest) {
            deepest = depth;
            push = depth * n;
          }
        }
      }
      if (!(deepest > 0.f)) break;
      shift += push;
    }
    if (shift == glm::vec3(0.f)) continue;
    ++moved;

    for (size_t k = 0; k < set.size(); ++k)
      if (held_core(set, k, kinematic, is_fixed)) kinematic_velocity[set.vertex[k]] += shift / h;
  }
  return moved;
}

void forget_held_shift(const std::array<ElasticSet, kDeviceCount>& sets,
                       const std::array<glm::vec3, kDeviceCount>& shift, const uint8_t* is_fixed, float h,
                       const uint8_t* kinematic, glm::vec3* v) {
  for (int d = 0; d < kDeviceCount; ++d) {
    if (shift[d] == glm::vec3(0.f)) continue;
    for (size_t k = 0; k < sets[d].size(); ++k)
      if (held_core(sets[d], k, kinematic, is_fixed)) v[sets[d].vertex[k]] -= shift[d] / h;
  }
}

}  // namespace weft
