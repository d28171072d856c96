#include "sim/planar_seed.h"

#include <cmath>

namespace weft {
namespace {

// A value in [-1, 1] fixed per vertex (an integer hash: the same on every machine).
float pattern(uint32_t i) {
  uint32_t h = i * 2654435761u;
  h ^= h >> 16;
  h *= 2246822519u;
  h ^= h >> 13;
  return float(h & 0xffffu) / 32767.5f - 1.f;
}

}  // namespace

bool seed_out_of_plane(const ClothModel& model, ClothState& state, float amplitude) {
  const std::vector<glm::vec3>& x = state.position;
  if (x.size() < 3 || model.triangle.empty()) return false;
  // The plane of the largest triangle.
  glm::vec3 normal(0.f);
  float best = 0.f;
  for (const auto& t : model.triangle) {
    const glm::vec3 n = glm::cross(x[t[1]] - x[t[0]], x[t[2]] - x[t[0]]);
    const float a = glm::dot(n, n);
    if (a > best) {
      best = a;
      normal = n;
    }
  }
  if (!(best > 0.f)) return false;
  normal /= std::sqrt(best);
  // Gravity across the plane bends the sheet out of it by itself (a cloth lying on a table).
  const glm::vec3 g = model.material.gravity;
  if (std::abs(glm::dot(normal, g)) > 1e-3f * glm::length(g)) return false;
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (const glm::vec3& p : x) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  const float tolerance = 1e-6f * glm::length(hi - lo);
  const float d0 = glm::dot(normal, x[0]);
  for (const glm::vec3& p : x)
    if (std::abs(glm::dot(normal, p) - d0) > tolerance) return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (!model.pinned[i]) state.position[i] += amplitude * pattern(uint32_t(i)) * normal;
  return true;
}

}  // namespace weft
