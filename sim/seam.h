#pragma once
// Seams (Volino 1997 Fig. 5f-g): a vertex pulled toward a point of another border, by elastics with one
// time constant, then sewn for good once the gap has closed. Plain arrays of vertex indices and weights,
// so that a topology edit remaps them like any vertex-indexed state.
#include <array>
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

// One tick of the seams, before the step. Open pairs: their relative velocity is set so that the gap
// decays as exp(-t/tau), the momentum of the pair kept, and, as Volino's elastics drive a held patch, their
// vertices are then imposed that velocity through the step (kinematic, with this tick's gravity h g added,
// each listed in `driven`), so that their neighbours follow: corrected and then left free (A), a stiff
// fabric's implicit step took the correction back and a cotton skirt's seams stalled 4 cm open. A pair
// whose gap is below `sew_gap` becomes sewn: positions and velocities projected onto the closed seam with
// mass weights (momentum kept, the relative velocity removed: no kinetic energy added), then left free.
// Vertices already kinematic (held, pinned) count as infinitely heavy.
// piece_mass (per vertex, the mass of the piece of cloth it belongs to; null: none): an open pair between a
// piece more than kSeamAnchorRatio times heavier than the other closes by moving the lighter piece's side
// only, the heavier one's staying where it lies. Meeting halfway, the seam dragged the lip of a cloth lying
// on a table 3 cm through the friction that held the rest of it: on table.json's tool session both pieces
// buckled into ridges 2-7 cm high that self-collision, the weld and the limiter then fought (208 % strain,
// 829 speed clamps); brought to the cloth, the strip slides (seam_slip) and nothing buckles.
inline constexpr float kSeamAnchorRatio = 2.f;
void apply_seams(SeamSet& seams, const float* inv_mass, uint8_t* kinematic, glm::vec3* kinematic_velocity, glm::vec3* x,
                 glm::vec3* v, float h, const glm::vec3& gravity, const ElasticParams& params, float sew_gap,
                 std::vector<uint32_t>& driven, const float* piece_mass = nullptr);

// The mass of the piece (edge-connected part) each vertex belongs to, kg (nvert); a piece with a pinned vertex
// weighs infinitely much. Allocates (at a sew or an edit).
void piece_masses(size_t nvert, const std::vector<std::array<uint32_t, 2>>& edges, const float* mass,
                  const uint8_t* pinned, std::vector<float>& out);

// After the step's corrections: the sewn pairs' positions projected closed again, so that every published
// state has them closed, and their relative velocity removed with the same weights: the solve's pull of
// each panel on its side of the seam left them velocities they never moved with (a resting skirt kept an
// RMS speed of 13 cm/s in its 60 seam vertices alone).
void close_sewn_seams(const SeamSet& seams, const float* inv_mass, const uint8_t* kinematic, glm::vec3* x,
                      glm::vec3* v);

}  // namespace weft
