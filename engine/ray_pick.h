#pragma once
// Picks the cloth under a ray (the desktop mouse): nearest triangle hit, Moller-Trumbore test.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "engine/camera.h"

namespace weft {

struct RayHit {
  float distance = 0;         // along the ray, m
  uint32_t triangle = 0;      // index into the triangle list
  glm::vec3 point{0.f};       // hit point, world
  uint32_t nearest_vertex = 0;  // the hit triangle's corner closest to the point
};

// Both faces count (the cloth is two-sided). Returns nothing when the ray misses every triangle.
std::optional<RayHit> pick_triangle(const Ray& ray, const std::vector<glm::vec3>& positions,
                                    const std::vector<std::array<uint32_t, 3>>& triangles);

}  // namespace weft
