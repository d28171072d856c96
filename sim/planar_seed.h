#pragma once
// A cloth that starts exactly flat, with every force in its plane (a sheet hanging from pins, held by
// hands at the same depth), stays exactly flat: nothing in the step has an out-of-plane component, so it
// can never buckle, and it stands in compression like a wall. tracker_corner.json's corners lifted 0.3 m
// by two hands in its plane stayed up after the release, its top row 7 cm above the pins, frozen for as
// long as it ran. No real cloth is flat to the micrometre: the free vertices start up to 0.1 mm out of the
// plane (a fixed pattern, so runs stay deterministic), and compression buckles the sheet as it would.
#include "sim/cloth_model.h"
#include "sim/cloth_state.h"

namespace weft {

// When every vertex lies in one plane (within a millionth of the cloth's size) and gravity lies in it too,
// offsets the free (non-pinned) vertices along its normal by up to `amplitude` metres. Returns whether it
// did. (Gravity across the plane bends a sheet out of it by itself: a cloth lying flat is left as it is.)
bool seed_out_of_plane(const ClothModel& model, ClothState& state, float amplitude = 1e-4f);

}  // namespace weft
