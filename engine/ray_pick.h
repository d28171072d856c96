#pragma once
// Picks the cloth under a ray (the desktop mouse): nearest triangle hit, Moller-Trumbore test.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "engine/camera.h"
#include "engine/snapshot.h"

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

// Distance along the ray to where it enters the solid (0 from inside), or nothing when it misses.
std::optional<float> ray_solid_distance(const Ray& ray, const SolidGizmo& solid);
// The nearest of a snapshot's solids (drawn colliders and rigid boxes) the ray enters: what hides the
// cloth behind it from the cursor.
std::optional<float> nearest_solid_hit(const Ray& ray, const ClothSnapshot& snapshot);

}  // namespace weft
