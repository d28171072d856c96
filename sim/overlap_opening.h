#pragma once
// Room for the thickness in a mesh loaded with layers lying flat on each other (a fold laid flat, a doubled
// layer: engine/mesh_check.h's overlaps). Such a mesh gives the cloth a rest shape with two layers at zero
// distance, which a cloth of any thickness cannot take: drawn apart tick by tick, the layers were pulled
// back onto each other by their own rest shape (the crease's edges and the fold's hinges hold them flat),
// pushed apart again by the self-contacts, and so on for as long as the cloth ran: a 150-vertex folded
// disc gained 2-3 J of stretch in each tick's self-contacts, fell with 20 edges at the strain limit and never
// came to rest on a table (RMS 0.3-0.6 m/s on the floor after 1 s). So at load, before any tick, the
// overlapping pairs are drawn apart a thickness by geometry alone, and the caller takes its rest shape from
// there (World::add_overlapping_pairs): the layers are then as far apart as the contacts keep them, and the
// crease has the room it needs.
#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

#include "sim/bvh.h"
#include "sim/cloth_model.h"

namespace weft {

// One overlapping pair with its side: a moves along side x its normal, b against it.
struct OverlapPair {
  TrianglePair pair;
  float side = 1.f;
};

// Centroid of a's triangle relative to b's, along a's normal turned to a's side (0 where they lie on each other).
float overlap_gap(const ClothModel& model, const glm::vec3* x, const OverlapPair& o);

struct OverlapOpening {
  size_t iterations = 0;  // sweeps made
  size_t moved = 0;       // vertices moved at least once
  size_t left = 0;        // pairs still closer than `gap` at the end (the per-tick separation takes them)
};

// Draws every pair closer than `gap` apart along its side: each sweep shares each such pair's relative
// motion among its six vertices (the pinned ones stay) and moves every vertex along its summed share by at
// most `step` (m), until every pair is `gap` apart or `max_iterations` sweeps are done. Positions x (nvert)
// are moved in place. It allocates (a load-time operation).
OverlapOpening open_overlaps(const ClothModel& model, std::vector<glm::vec3>& x, const std::vector<OverlapPair>& pairs,
                             float gap, float step, size_t max_iterations);

}  // namespace weft
