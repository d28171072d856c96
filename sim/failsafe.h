#pragma once
// The last line of defence (issue 34), the step's final stage: not the fix for anything, a guarantee that a
// failure elsewhere (a solve that diverged, corrections that fought and pumped energy in) never reaches the
// user as an explosion. Two checks, both counted:
//   - speed: no free vertex ends the tick faster than the drivers (hands, trackers, moving colliders and
//     boxes) move, with a margin, or than the fastest vertex at the start of the tick plus a fall from the
//     cloth's top and one tick of gravity; faster ones are scaled back to that bound;
//   - energy: on a passive tick (nothing held, nothing moving the cloth from outside: no hand or tracker
//     holding, no moving collider or rigid box, no elastic pin, seam, wind or plasticity) the cloth's
//     kinetic energy rises by no more than gravity and its stored elastic energy gave up (sim/force_field.h);
//     a rise beyond that and a small tolerance is taken back from the free vertices' motion.
#include <cstdint>

#include "sim/force_field.h"
#include "sim/world_model.h"
#include "sim/world_state.h"

namespace weft {

// What the start of the tick measured, for the end-of-tick checks.
struct FailsafeBaseline {
  float fastest = 0;       // the fastest vertex, m/s
  float top = 0;           // the highest vertex with its ballistic rise (y + max(0, v_y)^2 / 2g), m
  bool passive = false;    // nothing puts energy into the cloth this tick
  Energy energy;           // at the start (only when passive), J
};

struct FailsafeStats {
  uint32_t speed_clamps = 0;   // vertices slowed this tick
  uint32_t energy_clamps = 0;  // 1 when energy was taken back this tick
  double energy_taken_j = 0;   // how much
  bool energy_known = false;   // `energy` holds the end of a passive tick
  Energy energy;
};

// Before the step: the bounds' inputs. `cached` is the end energy of the previous tick when nothing
// changed the state since (saves a pass over the cloth), else null.
FailsafeBaseline failsafe_baseline(const WorldModel& model, const WorldState& state, const Energy* cached);

// After every other stage: clamps and counts.
void apply_failsafe(const WorldModel& model, const FailsafeConfig& config, const FailsafeBaseline& baseline,
                    float h, WorldState& state, FailsafeStats& stats);

}  // namespace weft
