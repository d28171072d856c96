#pragma once
// The connected pieces of a cloth whose rest shape is flat and convex (a napkin, a grid, a panel cut as a
// convex polygon). On those the rest geodesic between two vertices is their straight rest distance,
// which shortest edge paths overestimate (by up to 8 % across a grid with alternating diagonals): tether
// lengths taken from edge paths let a hand and a pin pull such a cloth further than its edges' strain
// limit can follow (tether.h straighten_tethers).
#include <cstdint>
#include <vector>

#include "sim/cloth_model.h"
#include "sim/grasp.h"

namespace weft {

struct FlatPieces {
  std::vector<uint32_t> piece;          // connected piece per vertex (nvert), along structural edges
  std::vector<uint8_t> flat_convex;     // per piece: 1 if its rest shape is planar with a convex outline
};

// Planar: every rest position within 1e-5 of the piece's size from its mean plane. Convex, without
// holes: its area equals that of the convex hull of its vertices in that plane (within 1e-4).
FlatPieces find_flat_pieces(const ClothModel& model, const VertexAdjacency& adjacency);

}  // namespace weft
