#pragma once
// Pure geometric kernels of collision detection: closest features (proximity, Volino 1995 section 4.2)
// and sign-based crossing tests (interference: an edge crossing a triangle).
#include <glm/glm.hpp>

namespace weft {

// Closest point of triangle (a, b, c) to p, as barycentric weights: closest = w.x a + w.y b + w.z c,
// weights >= 0 summing to 1 (region-based, after Ericson, Real-Time Collision Detection 5.1.5).
glm::vec3 closest_point_on_triangle(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c);

struct SegmentParams {
  float s = 0;  // closest point on the first segment: p0 + s (p1 - p0), s in [0, 1]
  float t = 0;  // closest point on the second segment: q0 + t (q1 - q0), t in [0, 1]
};

// Parameters of the closest points between segments [p0, p1] and [q0, q1] (clamped, handles
// degenerate and parallel segments).
SegmentParams closest_points_on_segments(const glm::vec3& p0, const glm::vec3& p1, const glm::vec3& q0,
                                         const glm::vec3& q1);

// Sign of the volume of tetrahedron (a, b, c, d), i.e. det[b - a, c - a, d - a]: +1, -1 or 0.
// Evaluated in double precision from float inputs: the differences are exact, so only a value within
// rounding of zero can have the wrong sign.
int orient3d(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, const glm::vec3& d);

// True when segment [p, q] properly crosses triangle (a, b, c): the end points lie strictly on
// opposite sides of its plane and the segment passes strictly inside its three edges. Touching and
// coplanar configurations (measure zero) are not counted.
bool segment_crosses_triangle(const glm::vec3& p, const glm::vec3& q, const glm::vec3& a, const glm::vec3& b,
                              const glm::vec3& c);

// True when two triangles cross: an edge of one crosses the other (exact for non-degenerate,
// non-coplanar configurations, which is every configuration that is not a measure-zero touch).
bool triangles_intersect(const glm::vec3& a0, const glm::vec3& a1, const glm::vec3& a2, const glm::vec3& b0,
                         const glm::vec3& b1, const glm::vec3& b2);

}  // namespace weft
