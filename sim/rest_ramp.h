#pragma once
// A rest-shape scaling (World::edit's expand and shrink, sim/rest_scale.h) reached over several ticks instead
// of at once: a dab's 15 % change of the rest lengths, set in one tick, became speed the step and the limiter
// turned into motion (table.json's tool session: 27 and 63 fail-safe speed clamps on the expand and shrink
// ticks, vertices at 3 m/s). Each tick takes the same ratio of the way to the target, so the brush's edges
// move at a few cm/s. Sized at the edit (it allocates); a tick of it does not.
#include <vector>

#include "sim/cloth_model.h"

namespace weft {

// How long an expand or shrink takes to reach its rest shape, s.
inline constexpr double kRestRampSeconds = 0.1;

struct RestRamp {
  std::vector<float> target;  // the per-triangle scales the edit asked for (ntri)
  std::vector<float> next;    // this tick's scales (scratch, ntri)
  int ticks_left = 0;         // 0: no ramp

  bool active() const { return ticks_left > 0; }
  void clear() {
    target.clear();
    next.clear();
    ticks_left = 0;
  }
};

// The ramp toward `target` from `current`, over `ticks` ticks (at least 1).
void start_rest_ramp(RestRamp& ramp, const std::vector<float>& current, std::vector<float> target, int ticks);

// One tick: the model rescaled a step of the way (the same ratio each tick) and `scale` (the model's per-
// triangle scales) set to it. Returns true on the tick the target is reached (the ramp is then inactive).
bool step_rest_ramp(RestRamp& ramp, ClothModel& model, std::vector<float>& scale);

// The rest of the way at once (a topology edit or a reset cannot wait for it). Returns whether there was a ramp.
bool finish_rest_ramp(RestRamp& ramp, ClothModel& model, std::vector<float>& scale);

}  // namespace weft
