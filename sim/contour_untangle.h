#pragma once
// Gradual untangling of crossing cloth by intersection contour minimisation (Volino & Magnenat-Thalmann
// 2006, "Resolving surface collisions through intersection contour minimization"): where two triangles
// cross, their intersection is a segment of the contour along which the two surfaces cut each other.
// Each end of the segment is an edge of one surface crossing a triangle of the other; moving that
// edge relative to the triangle moves the end point within the triangle's plane, and the motion that
// shortens the contour most is found without knowing which side either layer belongs on (the contour
// carries no orientation, so the method needs no history). A closed contour (a tongue of cloth pushed
// through another layer) shrinks until it vanishes; an open one (ending on the cloth's boundary) slides
// off the boundary; a straight contour across two whole sheets does not move (no motion shortens it).
//
// Derivation, per segment end P = edge (p0, p1) crossing the plane of a triangle with normal n: moving
// the edge's surface by d relative to the triangle's moves P by d - e (n . d) / (n . e), e = p1 - p0, so
// a wanted in-plane motion -g of P (g: the contour length's gradient at P, here (P - Q) / |P - Q| from
// this segment; the neighbouring segment adds its own) is made by d = -(g - (g . e^) e^), the part of
// -g across the edge. The relative motion d is shared between the edge's two vertices and the
// triangle's three as a contact correction is, in proportion to their inverse masses and barycentric
// weights, so a kinematic or immovable side stays put and the other side takes all of it.
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/bvh.h"
#include "sim/cloth_model.h"

namespace weft {

// Where an edge of one triangle crosses the other triangle: P = (1 - s) x[edge[0]] + s x[edge[1]], inside
// the triangle with vertices triangle[] at barycentric weights bary.
struct EdgeCrossing {
  glm::vec3 point{0.f};
  uint32_t edge[2]{};
  float s = 0;
  uint32_t triangle[3]{};
  glm::vec3 bary{0.f};
};

// The segment along which two crossing triangles cut each other: its two ends, each an edge-triangle
// crossing.
struct CrossingSegment {
  EdgeCrossing end[2];
};

// The crossing segment of triangles a and b (vertex triples) at positions x; false when they do not
// cross in a way that defines one (no crossing, a touch, coplanar, or a segment shorter than 1e-7 m).
bool crossing_segment(const glm::vec3* x, const std::array<uint32_t, 3>& a, const std::array<uint32_t, 3>& b,
                      CrossingSegment& segment);

struct UntangleStats {
  uint64_t segments = 0;   // crossing segments that pushed
  uint64_t vertices = 0;   // vertices moved
  float largest_move = 0;  // largest move of one vertex, m
};

// Per-vertex scratch for contour_untangle (nvert each), sized once for the model.
struct UntangleScratch {
  std::vector<glm::vec3> push;   // accumulated relative-motion share per vertex (dimensionless)
  std::vector<uint8_t> touched;  // 1 while the vertex holds a push this call
  std::vector<uint32_t> list;    // vertices with touched set, in the order they were touched
  void resize(size_t vertex_count) {
    push.assign(vertex_count, glm::vec3(0.f));
    touched.assign(vertex_count, 0);
    list.reserve(vertex_count);
  }
};

// One step of contour minimisation over the crossing triangle pairs: every vertex of a crossing pair is
// moved along its summed contour-shortening direction by step x its length, at most step (m). inv_mass
// (nvert): 0 for vertices that must not move. also (nvert, optional): moved by the same amounts (a
// caller's start-of-step positions, so that the move counts as made before the step). No allocation once
// scratch is sized for the model.
UntangleStats contour_untangle(const ClothModel& model, const std::vector<TrianglePair>& pairs, glm::vec3* x,
                               const float* inv_mass, float step, UntangleScratch& scratch,
                               glm::vec3* also = nullptr);

}  // namespace weft
