#pragma once
// The sewn seams as welds for the strain limiter (sim/strain_limit.h): the vertices a sewn pair holds
// together form a ring that the limiter moves as one body. Without it the limiter shortened an edge beside
// a seam by pulling that seam vertex alone, the projection closing the seam (sim/seam.h) put it half back,
// and the next solve stretched the edge again: the edge beside the top of each side seam of the garment
// scene ended 130 % over its rest length (docs/decisions/sewn-seam-projection.md).
#include <cstdint>

#include "sim/seam.h"
#include "sim/strain_limit.h"

namespace weft {

// Rebuilds the rings from the seams sewn now (open pairs weld nothing). A pair on an edge (w > 0) welds its
// vertex to the nearer end of that edge; the projection after the contacts closes the rest. A ring with a
// kinematic member is immobile (inverse mass 0). No allocation: the scratch is sized for the model.
void weld_sewn_seams(const SeamSet& seams, const float* inv_mass, const uint8_t* kinematic, StrainLimitScratch& scratch);

}  // namespace weft
