#pragma once
// `weft mesh --check`: what makes a cloth mesh misbehave, counted with the first examples, each named by
// its triangle and (for a loaded OBJ) the file line it came from:
//   - degenerate triangles (repeated vertex or no area) and slivers (quality below kSliverQuality);
//   - non-manifold edges (shared by more than two triangles);
//   - flipped triangles: inconsistently oriented against their neighbours (an edge walked the same way by
//     both triangles sharing it); the minority orientation of each connected piece is counted as flipped;
//   - overlapping triangles: coplanar pairs whose interiors cover the same area (duplicates, a fold laid
//     flat back on itself).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/mesh.h"

namespace weft {

// Triangle quality 4 sqrt(3) A / (a^2 + b^2 + c^2): 1 for an equilateral triangle, 0 for a degenerate one.
float triangle_quality(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c);
inline constexpr float kSliverQuality = 0.05f;  // a right triangle with legs 1 : 17 is about this

struct MeshIssue {
  std::string kind;                 // "degenerate", "sliver", "non_manifold_edge", "flipped", "overlap"
  size_t count = 0;
  std::vector<std::string> examples;  // the first few, in words, with line numbers when known
};

struct MeshCheckReport {
  std::vector<MeshIssue> issues;  // one entry per kind, in the order above (count may be 0)
  std::vector<std::array<uint32_t, 2>> overlapping_pairs;  // the overlaps' triangle pairs (a < b), sorted
  size_t total() const;
};

// `triangle_line` (ntri, may be empty): the 1-based file line each triangle came from.
// The overlapping triangle pairs (a < b, sorted) as check_mesh counts them: coplanar within 1e-5 of the
// mesh's size, interiors sharing area. Through a uniform grid over the triangles' boxes
// (engine/box_grid.h), or with brute_force by testing every pair (O(n^2): the tests' reference).
std::vector<std::array<uint32_t, 2>> overlapping_triangles(const Mesh& mesh, bool brute_force = false);

MeshCheckReport check_mesh(const Mesh& mesh, const std::vector<uint32_t>& triangle_line = {}, size_t max_examples = 3);

}  // namespace weft
