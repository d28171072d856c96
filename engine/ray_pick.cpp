#include "engine/ray_pick.h"

#include <cmath>

namespace weft {

std::optional<RayHit> pick_triangle(const Ray& ray, const std::vector<glm::vec3>& positions,
                                    const std::vector<std::array<uint32_t, 3>>& triangles) {
  std::optional<RayHit> best;
  for (uint32_t t = 0; t < triangles.size(); ++t) {
    const auto& tri = triangles[t];
    const glm::vec3 a = positions[tri[0]], b = positions[tri[1]], c = positions[tri[2]];
    const glm::vec3 e1 = b - a, e2 = c - a;
    const glm::vec3 p = glm::cross(ray.direction, e2);
    const float det = glm::dot(e1, p);
    if (std::abs(det) < 1e-12f) continue;  // ray parallel to the triangle
    const float inv = 1.f / det;
    const glm::vec3 s = ray.origin - a;
    const float u = glm::dot(s, p) * inv;
    if (u < 0.f || u > 1.f) continue;
    const glm::vec3 q = glm::cross(s, e1);
    const float v = glm::dot(ray.direction, q) * inv;
    if (v < 0.f || u + v > 1.f) continue;
    const float d = glm::dot(e2, q) * inv;
    if (d <= 0.f || (best && d >= best->distance)) continue;
    RayHit hit;
    hit.distance = d;
    hit.triangle = t;
    hit.point = ray.origin + d * ray.direction;
    const float w[3] = {1.f - u - v, u, v};
    int k = 0;
    for (int i = 1; i < 3; ++i)
      if (w[i] > w[k]) k = i;
    hit.nearest_vertex = tri[k];
    best = hit;
  }
  return best;
}

}  // namespace weft
