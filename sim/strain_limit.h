#pragma once
// Strain limiting after Provot 1995 ("deformation constraints in a mass-spring model", cited by Volino):
// after the dynamic step, every structural edge stretched beyond (1 + limit) of its rest length is
// shortened back to that length by moving its ends toward each other (weighted by inverse mass, so the
// mass centre stays put and kinematic vertices do not move), and the part of the ends' relative velocity
// that stretches it further is removed. Iterated Gauss-Seidel over the edges, alternating direction;
// after a first full sweep only the edges touching a vertex that moved are looked at again (a worklist),
// so the later sweeps cost in proportion to what is still over the limit, not to the mesh.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth_model.h"
#include "sim/vertex_set.h"

namespace weft {

struct StrainLimitParams {
  bool enabled = true;
  float max_strain = 0.10f;  // largest allowed l / l0 - 1
  // Gauss-Seidel sweeps at most; stops early once no edge is over the limit by more than `tolerance`.
  // The weave presets need far more than the springs: their shear is 10-20 times softer than their
  // threads, so on a mesh whose edges lie at every angle to the weave the implicit step stretches edges
  // to 20-45 % in one tick while two hands shake the cloth, and Gauss-Seidel takes 100-400 sweeps to bring
  // that back (48 left 12.1 % in denim on a 3 Hz two-hand shake of a 2 cm annulus and 25 % in wool jersey on
  // ball_drape; docs/decisions/limiter-converge-to-zero.md).
  // The cap only bounds the worst tick; the tolerance ends the slow tail (a band at the limit along a
  // held row converging 0.1 mm a sweep) that the earlier cap of 48 cut short.
  int iterations = 512;
  // ... and in a pass near moved vertices (limit_strain_near: the collider alternation, up to
  // contact_passes a tick). 48 there too made a noise-spike whip's stalled alternation (16 passes that do
  // not settle) 1.5 times slower.
  int near_iterations = 24;
  // A pass stops once a sweep corrects no edge longer than (1 + max_strain + tolerance) rest lengths: the
  // bound a tick keeps is the limit + tolerance (well inside issue 34's limit + 1 %). 0.002 failed `weft
  // stress`'s chaotic rest_error_m once (hand_sweep all seed 0, 19 cm; 0, 0.001 and 0.005 pass it).
  float tolerance = 0.001f;
  // Also turn each position correction into velocity (dx / h), as position-based dynamics does, so the
  // next dynamic step starts from motion that respects the limit instead of re-stretching the cloth.
  bool velocity_from_correction = false;
  // World: after the colliders push vertices out, limit and collide again at most this many times
  // (the push-out stretches the edges around a contact; each round shrinks that excess).
  int contact_passes = 16;
  // ... and stop once a limiting pass moves no vertex farther than this share of the contact thickness
  // (the colliders' push-out left within it; the limiter had the last word, so no edge is over).
  float contact_settle = 0.05f;
  // Long-range tethers (tether.h) to held and pinned vertices allow (1 + tether_slack) times the rest
  // length of the shortest edge path; the edge limit above stays max_strain.
  float tether_slack = 0.10f;
};

struct StrainLimitStats {
  int sweeps = 0;            // sweeps done in the last pass
  uint32_t corrected = 0;    // edge corrections in the last pass
  float largest_move = 0.f;  // the longest distance one correction moved a vertex in the last pass (m)
};

// Worklist buffers and the vertex-to-edge adjacency, sized once from the model.
struct StrainLimitScratch {
  std::vector<uint32_t> edge_offset;  // edges of vertex i: vertex_edge[edge_offset[i] .. edge_offset[i + 1]) (nvert + 1)
  std::vector<uint32_t> vertex_edge;  // structural edge indices (2 nedge)
  std::vector<uint32_t> current, next;  // edges to look at in this and the next sweep (capacity nedge); after
                                        // a pass, `next` holds what its last sweep left (iterations ran out)
  std::vector<uint8_t> queued;          // 1 while the edge is in `next` (nedge)
  VertexSet moved;                      // the vertices the last pass moved
  // Sewn seams (sim/sewn_weld.h): the vertices a sewn seam holds together move as one body in the limiter,
  // so that it does not shorten an edge by pulling one side of a seam that the projection then puts back.
  std::vector<uint32_t> weld_next;      // the next vertex of i's welded ring (i itself: not welded) (nvert)
  std::vector<uint32_t> weld_root;      // the ring's representative (nvert; meaningful where welded)
  std::vector<float> weld_inv_mass;     // the ring's inverse total mass, 0 if one member is kinematic (nvert)
  std::vector<uint32_t> weld_members;   // the welded vertices, to reset them (capacity nvert)
  void resize(const ClothModel& model);
};

// One edge (Provot 1995 section 5): returns how far each end must move along the unit direction u
// (from i to j) so that the length becomes l_max, weighted by inverse masses wi, wj. Zero when not over.
// dxi = +s wi / (wi + wj) u, dxj = -s wj / (wi + wj) u with s = l - l_max.
float strain_excess(float length, float rest_length, float max_strain);

// Runs the pass on positions x and velocities v; vertices with inv_mass 0 or kinematic set are immobile.
// The vertices it moves are in scratch.moved afterwards.
void limit_strain(const ClothModel& model, const uint8_t* kinematic, const StrainLimitParams& params, float h,
                  StrainLimitScratch& scratch, glm::vec3* x, glm::vec3* v, StrainLimitStats& stats);

// The same pass after an earlier one when only the vertices `around` have moved since (a collider pushed
// them out): its first sweep looks at their edges instead of at every edge. The others are as the
// earlier pass left them: within the limit, or over it where that pass ran out of sweeps.
void limit_strain_near(const ClothModel& model, const uint8_t* kinematic, const StrainLimitParams& params, float h,
                       const VertexSet& around, StrainLimitScratch& scratch, glm::vec3* x, glm::vec3* v,
                       StrainLimitStats& stats);

// Largest l / l0 - 1 over the structural edges, and which edge has it.
struct EdgeStrainPeak {
  float strain = -1.f;
  uint32_t edge = 0;
};
EdgeStrainPeak most_stretched_edge(const ClothModel& model, const glm::vec3* x);
inline float max_edge_strain(const ClothModel& model, const glm::vec3* x) { return most_stretched_edge(model, x).strain; }

}  // namespace weft
