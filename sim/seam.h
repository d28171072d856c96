#pragma once
// Seams (Volino 1997 Fig. 5f-g): a vertex pulled toward a point of another border, by elastics with one
// time constant, then sewn for good once the gap has closed. Plain arrays of vertex indices and weights,
// so that a topology edit remaps them like any vertex-indexed state.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/elastic_constraint.h"

namespace weft {

// Seam pairs: vertex a and the point (1 - w) x_b + w x_c on the edge b-c of the other border (c == b and
// w == 0: a vertex-to-vertex pair). Flat arrays, all of length npair.
struct SeamSet {
  std::vector<uint32_t> a;     // the pulled vertex
  std::vector<uint32_t> b, c;  // the edge it is pulled toward (c == b: a vertex)
  std::vector<float> w;        // the point's weight on c, in [0, 1]
  std::vector<uint8_t> sewn;   // 1 once the gap closed below the sew threshold: held together for good

  size_t size() const { return a.size(); }
  void add(uint32_t va, uint32_t vb, uint32_t vc, float wc);
  void add(uint32_t va, uint32_t vb) { add(va, vb, vb, 0.f); }
  void clear() { a.clear(); b.clear(); c.clear(); w.clear(); sewn.clear(); }
};

// The gap of pair k: x_a - ((1 - w) x_b + w x_c), m.
inline glm::vec3 seam_gap(const SeamSet& s, size_t k, const glm::vec3* x) {
  return x[s.a[k]] - ((1.f - s.w[k]) * x[s.b[k]] + s.w[k] * x[s.c[k]]);
}

// The largest gap over the pairs (0 without pairs), m.
float seam_gap_max(const SeamSet& seams, const glm::vec3* x);

// One tick of the seams, before the step. Pairs still open: their relative velocity is set so that the gap
// decays as exp(-t/tau) (correction (A)), the momentum of the pair kept; a pair whose gap is below
// `sew_gap` becomes sewn. Sewn pairs: positions and velocities projected onto the closed seam with
// mass weights (the pair's momentum kept; the relative velocity removed, so no kinetic energy is added).
// Kinematic vertices (held, pinned) count as infinitely heavy.
void apply_seams(SeamSet& seams, const float* inv_mass, const uint8_t* kinematic, glm::vec3* x, glm::vec3* v, float h,
                 const ElasticParams& params, float sew_gap);

}  // namespace weft
