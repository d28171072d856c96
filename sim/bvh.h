#pragma once
// Bounding-volume hierarchy over the cloth triangles with normal cones, for self-collision
// (Volino, Courchesne & Thalmann 1995 section 4.1). The tree is built once from the rest shape (again
// after an edit, along the old leaf order) and refitted every tick; a subtree that is one edge-connected
// patch whose normals stay inside a cone of half-angle below the limit is a height field over the cone's
// axis and cannot fold onto itself, so its self-test is skipped (Volino's curvature criterion).
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth_model.h"

namespace weft {

// acos(x) (Abramowitz & Stegun 4.4.45, error below 7e-5 rad) plus that error, so that cones built from
// it are never narrower than the exact ones; the exact acos was a fifth of the refit and traversal.
inline float acos_upper(float x) {
  x = x < -1.f ? -1.f : (x > 1.f ? 1.f : x);
  const float a = x < 0.f ? -x : x;
  const float r = std::sqrt(1.f - a) * (1.5707288f + a * (-0.2121144f + a * (0.0742610f - 0.0187293f * a)));
  return (x >= 0.f ? r : 3.14159265f - r) + 1e-4f;
}

struct BvhNode {
  glm::vec3 lo{0.f}, hi{0.f};    // axis-aligned bounds at the last refit, m
  glm::vec3 normal_sum{0.f};     // sum of area-weighted triangle normals below the node
  glm::vec3 cone_axis{0.f};      // unit axis of the normal cone (zero when the normals cancel)
  float cone_half_angle = 0.f;   // half-angle of the normal cone, radians (pi when unbounded)
  int32_t left = -1, right = -1; // children (left > node index); -1 for a leaf
  int32_t triangle = -1;         // the leaf's triangle, -1 for an inner node
  uint8_t connected = 0;         // 1 if the node's triangles form one edge-connected patch
};

// Normal cone of the triangles around one vertex (a fan): unit axis and half-angle (radians; pi when a
// triangle is degenerate or the fan is not one edge-connected patch).
struct FanCone {
  glm::vec3 axis{0.f};
  float half_angle = 0.f;
};

// Half-angle of a cone holding two cones (axes a and b, unit): half of (the angle between the axes +
// both half-angles), or the wider of the two when it holds the other.
inline float merged_half_angle(const glm::vec3& axis_a, float half_a, const glm::vec3& axis_b, float half_b) {
  const float between = acos_upper(glm::dot(axis_a, axis_b));
  const float wider = half_a > half_b ? half_a : half_b;
  const float spanning = 0.5f * (between + half_a + half_b);
  return spanning > wider ? spanning : wider;
}

struct TrianglePair {
  uint32_t a = 0, b = 0;  // triangle indices, a != b
};

struct BvhTraversalStats {
  uint64_t node_visits = 0;     // node pairs popped during the last traversal
  uint64_t cone_skips = 0;      // subtrees whose self-test the curvature criterion skipped
  uint64_t leaf_pairs = 0;      // candidate triangle pairs produced
  uint64_t adjacent_culled = 0; // overlapping neighbour pairs (triangles or subtrees) skipped as one flat patch
  bool truncated = false;       // the pair cap was reached and the traversal stopped
};

class TriangleBvh {
 public:
  TriangleBvh() = default;
  // Builds the topology of the tree from the model's rest shape: disconnected pieces are split apart
  // first, then each piece by the median of triangle centroids along the longest axis.
  explicit TriangleBvh(const ClothModel& model);
  // The same from a leaf order (every triangle once): each piece is split at the middle of the order, not
  // at the median along its longest axis. After an edit, the old tree's leaf order with each triangle
  // replaced by those it became (edited_leaf_order) gives back the old tree where nothing changed, in a
  // pass over the order instead of a median search at every level (docs/performance.md, rebuild table).
  TriangleBvh(const ClothModel& model, std::vector<uint32_t> leaf_order);

  // The triangles in the order of their leaves (pre-order).
  std::vector<uint32_t> leaf_order() const;

  // Recomputes bounds and cones. Each leaf bounds its triangle at both position sets (the motion of
  // the step), grown by margin on every side; cones come from the current positions.
  void refit(const ClothModel& model, const glm::vec3* current, const glm::vec3* previous, float margin);

  // Appends every pair of distinct triangles whose leaf bounds overlap to out (cleared first), each
  // unordered pair once, skipping the self-test of connected subtrees whose cone half-angle is below
  // cone_limit (radians; pass a negative value to skip nothing). The same criterion is applied to the
  // union of two neighbouring subtrees (Volino's adjacent regions): two connected subtrees that share
  // at least two boundary vertices form one patch, skipped when the cone holding both is below the
  // limit; and at the smallest scale, two triangles that share an edge and whose normals are less than
  // cone_limit / 2 apart. Without these, every neighbour pair along a fold or a drape is a candidate and
  // the traversal walks down to it (most of the work on a draped cloth). Allocates only while out and
  // the traversal stack grow past their largest size so far.
  // At most max_pairs are produced: the traversal stops there (stats().truncated), so a tangled or
  // blown-up state costs a bounded time.
  // With `fans`, corner neighbours are also judged by their vertex fans (fan_cone): two triangles that
  // share a corner, or two subtrees that touch at one vertex, are one patch with that vertex's fan. The
  // self-collision turns it off while the cloth holds a tangle and in its tangle scans: the criterion
  // assumes a fan that does not overlap itself, and on the folded-over mesh it left 336-341 crossing pairs
  // at the end (328 at the load) where the pair tests take them down to 299.
  void self_pairs(float cone_limit, std::vector<TrianglePair>& out, size_t max_pairs = SIZE_MAX, bool fans = true);

  // Appends to out (not cleared) the pairs self_pairs gives that hold a flagged triangle (flagged: ntri,
  // nonzero), each once: the same traversal, entering only node pairs with a flagged leaf on one side,
  // so the cost follows what is flagged, not the mesh. Stops (stats().truncated) when out holds max_pairs.
  void pairs_touching(const uint8_t* flagged, float cone_limit, std::vector<TrianglePair>& out,
                      size_t max_pairs = SIZE_MAX, bool fans = true);

  const std::vector<BvhNode>& nodes() const { return nodes_; }
  // Unit normal per triangle at the last refit's current positions, zero when degenerate (ntri).
  const std::vector<glm::vec3>& triangle_normals() const { return normal_; }
  const BvhTraversalStats& stats() const { return stats_; }
  // The normal cone of vertex v's fan at the last refit (computed on first use after each refit). A
  // fan is an edge-connected patch around its vertex (pi when it is not: a bow-tie vertex).
  const FanCone& fan_cone(uint32_t v);
  // Features a triangle tests as the first of a pair, so that shared vertices and edges are tested
  // once: bit k (k < 3) owns corner k, bit 3 + k owns the edge opposite corner k.
  const std::vector<uint8_t>& feature_mask() const { return feature_mask_; }

 private:
  int32_t build(const ClothModel& model, uint32_t* begin, uint32_t* end);
  // Components, the tree over `order` (split at the median along the longest axis unless `ordered`), then
  // the connectivity flags, boundaries and fans.
  void construct(const ClothModel& model, std::vector<uint32_t>& order, bool ordered);
  void traverse(float cone_limit, std::vector<TrianglePair>& out, size_t max_pairs, const uint8_t* node_flagged,
                bool fans);
  void build_boundaries(const ClothModel& model);
  // How many boundary vertices two disjoint subtrees share (0, 1 or 2 meaning two or more); `vertex`
  // gets the first.
  int shared_boundary(int32_t a, int32_t b, uint32_t& vertex) const;
  void build_fans(const ClothModel& model);

  std::vector<BvhNode> nodes_;          // pre-order: children after their parent; root at 0
  std::vector<uint8_t> feature_mask_;   // per triangle (ntri)
  std::vector<std::array<uint32_t, 3>> triangle_;  // corner vertices per triangle (ntri), for adjacency
  std::vector<glm::vec3> normal_;       // unit normal per triangle at the last refit (ntri)
  // The refit's two loops: the leaf of each triangle (ntri), and the inner nodes children first. One
  // pre-order loop branching on the node's kind mispredicted most nodes (the kinds interleave).
  std::vector<int32_t> leaf_of_triangle_, inner_bottom_up_;
  std::vector<uint8_t> node_flagged_;   // pairs_touching: 1 if the subtree holds a flagged triangle (nodes)
  // Boundary vertices per node (CSR, sorted): vertices of its triangles that other triangles use too.
  // Two disjoint subtrees touch only through vertices on both boundaries.
  std::vector<uint32_t> boundary_start_, boundary_;
  std::vector<glm::vec3> centroid_;     // rest centroid per triangle (ntri), build only
  std::vector<uint32_t> component_;     // connected piece per triangle (ntri), build only
  bool ordered_ = false;                // build only: split at the middle of the given order
  const uint32_t* order_begin_ = nullptr;  // build only: the order being split
  std::vector<uint32_t> run_end_;       // build only: per position, the end of its piece's run (ntri)
  void mark_runs(const uint32_t* begin, const uint32_t* end);
  std::vector<std::pair<int32_t, int32_t>> stack_;
  BvhTraversalStats stats_;
  uint32_t refits_ = 0;
  // Vertex fans: the triangles around each vertex (CSR), whether they form one edge-connected patch,
  // and their cone cache (fan_stamp_ == refits_: current).
  std::vector<uint32_t> fan_start_, fan_;
  std::vector<uint8_t> fan_connected_;
  std::vector<FanCone> fan_cone_;
  std::vector<uint32_t> fan_stamp_;
};

}  // namespace weft
