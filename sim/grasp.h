#pragma once
// Choosing what a hand holds: the vertex nearest the grasp point plus the vertices connected to it
// (through structural edges) within a radius, each weighted by a falloff so a fist holds a patch with a
// firm core and a soft rim, not a single vertex.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/cloth_model.h"
#include "sim/elastic_constraint.h"
#include "sim/pose.h"

namespace weft {

enum class Falloff : uint8_t {
  Uniform,  // every vertex within the radius is fully held
  Linear,   // weight 1 inside core_fraction * radius, then linear down to min_weight at the radius
  Smooth,   // same, with a smoothstep instead of the line
};

struct GraspParams {
  Falloff falloff = Falloff::Smooth;
  float core_fraction = 0.5f;  // fully held inside this fraction of the radius
  float min_weight = 0.2f;     // weight at the radius
  // Fallback when no vertex lies within the radius: the patch around the nearest vertex is taken if that
  // vertex lies within fallback_scale * radius (at least `reach`). The wide band makes the outcome of a
  // hand closing just outside the radius independent of millimetres of jitter.
  float fallback_scale = 2.f;
  float reach = 0.05f;         // m
  // Hysteresis: a hand that came within the catch radius during the last hysteresis_s (its tracked
  // samples) still catches from up to hysteresis_band beyond it, so jitter at the catch radius itself
  // does not decide the outcome either.
  double hysteresis_s = 0.1;
  float hysteresis_band = 0.01f;  // m
  // A patch is never thinner than this many mean rest edge lengths in radius (a small grasp radius on a
  // coarse mesh would otherwise hold a single vertex, which rotation and pulling fling).
  float min_patch_edges = 1.f;
};

// Radius within which the nearest vertex is caught: max(fallback_scale * radius, reach).
inline float catch_radius(float radius, const GraspParams& params) {
  return std::max(params.fallback_scale * radius, params.reach);
}

// Weight of a vertex at distance d from the patch centre (Falloff above); 0 outside the radius.
float falloff_weight(float d, float radius, const GraspParams& params);

// Vertex adjacency through structural edges, compressed rows: neighbours of i are
// neighbour[offset[i] .. offset[i + 1]).
struct VertexAdjacency {
  std::vector<uint32_t> offset;     // (nvert + 1)
  std::vector<uint32_t> neighbour;  // (2 nedge)
};
VertexAdjacency build_adjacency(const ClothModel& model);

// Breadth-first scratch, sized once (nvert).
struct GraspScratch {
  std::vector<uint32_t> queue;
  std::vector<uint8_t> visited;
  void resize(size_t nvert) { queue.reserve(nvert); visited.assign(nvert, 0); }
};

// Fills `out` with the held vertices, their weights and their offsets in the hand frame `pose`. The
// patch is centred on the vertex nearest pose.position and grows through edges while within the patch
// radius (max(radius, min_patch_edges mean edge lengths)) of that vertex (so a folded cloth's other layer
// is not taken). Vertices flagged in `excluded` (nvert, may be null: pins) are passed through but not
// held: a pin outranks a grasp. Returns the count; 0 when the nearest vertex is beyond catch_radius.
// Allocates only if `out` has less capacity than the patch (grab is an event, not a tick).
// `extra_reach` (m) widens the catch radius (the hysteresis band, applied by World::grab).
size_t select_grasp(const ClothModel& model, const VertexAdjacency& adjacency, const glm::vec3* x, const Pose& pose,
                    float radius, const GraspParams& params, GraspScratch& scratch, ElasticSet& out,
                    const uint8_t* excluded = nullptr, float extra_reach = 0.f);

// Distance from p to the nearest of the n points x (infinite when n = 0).
float nearest_distance(const glm::vec3* x, size_t n, const glm::vec3& p);

// Mean rest length of the structural edges, m.
float mean_edge_length(const ClothModel& model);

}  // namespace weft
