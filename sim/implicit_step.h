#pragma once
// Pieces every linearised implicit solver (approx, cg, gs, mg) shares: the dot product its Krylov loops
// accumulate in double, and the end of the step, Kang & Cho Eq. 14-15's update v += dv, x += h v,
// after the optional free-flight translation correction.
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth_state.h"
#include "sim/force_field.h"
#include "sim/translation_correction.h"

namespace weft {

inline double dot(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += double(a[i].x) * b[i].x + double(a[i].y) * b[i].y + double(a[i].z) * b[i].z;
  return s;
}

// Applies the solved velocity change dv (corrected first when translation_correction) and advances the clock.
inline void finish_implicit_step(const ClothModel& model, ClothState& state, const ForceBuffers& forces, float h,
                                 glm::vec3* dv, bool translation_correction) {
  if (translation_correction) correct_free_translation(model, state, forces, h, dv);
  glm::vec3* v = state.velocity.data();
  glm::vec3* x = state.position.data();
  for (size_t i = 0; i < state.velocity.size(); ++i) {
    v[i] += dv[i];
    x[i] += h * v[i];
  }
  state.time += h;
  ++state.step_count;
}

}  // namespace weft
