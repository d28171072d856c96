#pragma once
// Long-range tethers that help strain limiting with held cloth (the "long range attachments" idea of
// Kim, Chentanez & Mueller 2012, applied to Provot's deformation constraint): if no edge stretches more
// than max_strain, no vertex can be farther from a held vertex than (1 + max_strain) times the rest
// length of the shortest edge path between them. Projecting every free vertex back inside that sphere is
// O(n), never fights the edge limits, and removes at once the global stretch a yank of the hand puts on
// the whole cloth, which Gauss-Seidel sweeps over edges would need many sweeps to propagate.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth_model.h"
#include "sim/flat_pieces.h"
#include "sim/grasp.h"

namespace weft {

struct Tethers {
  std::vector<uint32_t> anchor;  // nearest held vertex along edges, per vertex (nvert)
  std::vector<float> length;     // rest length of the shortest edge path to it (nvert), m; infinite if none
  bool active = false;
};

// Dijkstra's heap, reserved once so that grabbing (the runtime applies grabs on the sim thread) never
// allocates: every push follows an edge relaxation, so 2 nedge + nvert entries always suffice.
struct TetherScratch {
  std::vector<std::pair<float, uint32_t>> heap;
  std::vector<uint32_t> sources;  // (capacity nvert)
  void resize(const ClothModel& model);
};

// Multi-source Dijkstra over structural edges from `sources`. Runs on grab or attach, not per tick;
// allocation-free when `out` was sized for the model before.
void build_tethers(const ClothModel& model, const VertexAdjacency& adjacency, const uint32_t* sources,
                   size_t nsource, TetherScratch& scratch, Tethers& out);

// On the pieces that are flat and convex at rest (flat_pieces.h) the rest geodesic to the anchor is the
// straight rest distance: each such vertex's length becomes that, shorter than the edge path by up to 8 %
// on a grid. Any anchor gives a valid bound, so the edge path's anchor is kept. O(n).
void straighten_tethers(const ClothModel& model, const FlatPieces& pieces, Tethers& tethers);

// Pulls every free vertex (not kinematic, inv_mass > 0) farther than (1 + max_strain) length from its
// anchor back onto that sphere, and removes its outward velocity relative to the anchor.
void apply_tethers(const Tethers& tethers, float max_strain, const float* inv_mass, const uint8_t* kinematic,
                   glm::vec3* x, glm::vec3* v, size_t nvert);

}  // namespace weft
