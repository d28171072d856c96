#include "sim/collision_geometry.h"

#include <algorithm>

namespace weft {

glm::vec3 closest_point_on_triangle(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  // Voronoi regions of the vertices, then of the edges, else the face.
  const glm::vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0.f && d2 <= 0.f) return {1, 0, 0};
  const glm::vec3 bp = p - b;
  const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0.f && d4 <= d3) return {0, 1, 0};
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.f && d1 >= 0.f && d3 <= 0.f) {
    const float v = d1 / (d1 - d3);
    return {1 - v, v, 0};
  }
  const glm::vec3 cp = p - c;
  const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0.f && d5 <= d6) return {0, 0, 1};
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.f && d2 >= 0.f && d6 <= 0.f) {
    const float w = d2 / (d2 - d6);
    return {1 - w, 0, w};
  }
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.f && (d4 - d3) >= 0.f && (d5 - d6) >= 0.f) {
    const float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return {0, 1 - w, w};
  }
  const float denom = va + vb + vc;
  if (!(denom > 0.f)) return {1.f / 3, 1.f / 3, 1.f / 3};  // degenerate triangle
  const float v = vb / denom, w = vc / denom;
  return {1 - v - w, v, w};
}

SegmentParams closest_points_on_segments(const glm::vec3& p0, const glm::vec3& p1, const glm::vec3& q0,
                                         const glm::vec3& q1) {
  const glm::vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const float a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
  constexpr float tiny = 1e-20f;
  if (a <= tiny && e <= tiny) return {0, 0};
  if (a <= tiny) return {0, std::clamp(f / e, 0.f, 1.f)};
  const float c = glm::dot(d1, r);
  if (e <= tiny) return {std::clamp(-c / a, 0.f, 1.f), 0};
  const float b = glm::dot(d1, d2), denom = a * e - b * b;
  // Parallel segments (denom ~ 0): any s works; take 0 and clamp t.
  float s = denom > 1e-12f * a * e ? std::clamp((b * f - c * e) / denom, 0.f, 1.f) : 0.f;
  float t = (b * s + f) / e;
  if (t < 0.f) {
    t = 0.f;
    s = std::clamp(-c / a, 0.f, 1.f);
  } else if (t > 1.f) {
    t = 1.f;
    s = std::clamp((b - c) / a, 0.f, 1.f);
  }
  return {s, t};
}

int orient3d(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, const glm::vec3& d) {
  const glm::dvec3 ad(a), u = glm::dvec3(b) - ad, v = glm::dvec3(c) - ad, w = glm::dvec3(d) - ad;
  const double det = glm::dot(u, glm::cross(v, w));
  return (det > 0) - (det < 0);
}

bool segment_crosses_triangle(const glm::vec3& p, const glm::vec3& q, const glm::vec3& a, const glm::vec3& b,
                              const glm::vec3& c) {
  const int sp = orient3d(a, b, c, p), sq = orient3d(a, b, c, q);
  if (sp == 0 || sq == 0 || sp == sq) return false;
  // The line pq passes inside the triangle iff it sees the three edges with the same orientation.
  const int e0 = orient3d(p, q, a, b), e1 = orient3d(p, q, b, c), e2 = orient3d(p, q, c, a);
  return e0 != 0 && e0 == e1 && e1 == e2;
}

bool triangles_intersect(const glm::vec3& a0, const glm::vec3& a1, const glm::vec3& a2, const glm::vec3& b0,
                         const glm::vec3& b1, const glm::vec3& b2) {
  return segment_crosses_triangle(a0, a1, b0, b1, b2) || segment_crosses_triangle(a1, a2, b0, b1, b2) ||
         segment_crosses_triangle(a2, a0, b0, b1, b2) || segment_crosses_triangle(b0, b1, a0, a1, a2) ||
         segment_crosses_triangle(b1, b2, a0, a1, a2) || segment_crosses_triangle(b2, b0, a0, a1, a2);
}

}  // namespace weft
