#include "engine/ray_pick.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/quaternion.hpp>

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

namespace {

constexpr float kMiss = std::numeric_limits<float>::infinity();

// Entry distance into a sphere at the origin (0 from inside), kMiss if the ray misses it.
float enter_sphere(const glm::vec3& o, const glm::vec3& d, float r) {
  const float b = glm::dot(o, d), c = glm::dot(o, o) - r * r;
  if (c <= 0.f) return 0.f;
  if (b > 0.f) return kMiss;  // outside and heading away
  const float disc = b * b - c;
  return disc < 0.f ? kMiss : -b - std::sqrt(disc);
}

// A capsule along y (segment y in [-h, h], radius r) is the union of its cylinder and its end spheres,
// all convex: the ray enters it where it first enters one of them.
float enter_capsule(const glm::vec3& o, const glm::vec3& d, float r, float h) {
  if (glm::length(o - glm::vec3(0.f, std::clamp(o.y, -h, h), 0.f)) <= r) return 0.f;
  float t = std::min(enter_sphere(o - glm::vec3(0.f, h, 0.f), d, r), enter_sphere(o + glm::vec3(0.f, h, 0.f), d, r));
  const float a = d.x * d.x + d.z * d.z, b = o.x * d.x + o.z * d.z, c = o.x * o.x + o.z * o.z - r * r;
  if (a > 1e-12f && b * b - a * c >= 0.f) {
    const float side = (-b - std::sqrt(b * b - a * c)) / a;
    if (side >= 0.f && std::abs(o.y + side * d.y) <= h) t = std::min(t, side);
  }
  return t;
}

// Slabs of a box centred at the origin.
float enter_box(const glm::vec3& o, const glm::vec3& d, const glm::vec3& half) {
  float near = 0.f, far = kMiss;
  for (int k = 0; k < 3; ++k) {
    if (std::abs(d[k]) < 1e-12f) {
      if (std::abs(o[k]) > half[k]) return kMiss;
      continue;
    }
    float t0 = (-half[k] - o[k]) / d[k], t1 = (half[k] - o[k]) / d[k];
    if (t0 > t1) std::swap(t0, t1);
    near = std::max(near, t0);
    far = std::min(far, t1);
    if (near > far) return kMiss;
  }
  return near;
}

}  // namespace

std::optional<float> ray_solid_distance(const Ray& ray, const SolidGizmo& solid) {
  // In the solid's frame: its shapes are centred there, a capsule along y.
  const glm::quat to_local = glm::inverse(solid.orientation);
  const glm::vec3 o = to_local * (ray.origin - solid.position), d = to_local * ray.direction;
  float t = kMiss;
  switch (solid.shape) {
    case SolidShape::Box: t = enter_box(o, d, solid.size); break;
    case SolidShape::Sphere: t = enter_sphere(o, d, solid.size.x); break;
    case SolidShape::Capsule: t = enter_capsule(o, d, solid.size.x, solid.size.y); break;
  }
  if (!(t < kMiss)) return std::nullopt;
  return t;
}

std::optional<float> nearest_solid_hit(const Ray& ray, const ClothSnapshot& snapshot) {
  std::optional<float> best;
  for (uint32_t k = 0; k < snapshot.solid_count; ++k)
    if (const auto t = ray_solid_distance(ray, snapshot.solids[k]); t && (!best || *t < *best)) best = t;
  return best;
}

}  // namespace weft
