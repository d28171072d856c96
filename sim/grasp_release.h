#pragma once
// Letting go without a fling. A held patch is kinematic, and the cloth around it may be stretched up to
// the saturation strain (sim/grasp_saturation.h) by hands pulling apart or against a pin or tracker. Freed
// in one tick, that stretch snaps back at about strain x wave speed (0.09 x sqrt(500 N/m / 0.15 kg/m^2)
// = 5.2 m/s: every shipped demo's release, with the hands under 1 m/s). A hand that opens is not that
// sudden: the cloth slides out of the grip. So a release first lets the patch slide for
// InteractionConfig::release_time: it stays kinematic, its frame goes on at the hand's smoothed velocity
// at the release (not falling: a kinematic frame falling at g crushed what lay under it), and it is drawn
// toward the pins and patches it is tethered to so that the stretch along each tether falls linearly to
// none by the end of the window.
// Then it is freed with nothing stored to throw (docs/decisions/release-*.md: what else was measured).
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/elastic_constraint.h"
#include "sim/pose.h"
#include "sim/tether.h"

namespace weft {

// One device's release in progress.
struct GraspRelease {
  uint32_t ticks_left = 0;  // ticks of sliding still to run; the patch is freed at the tick after the last
  bool active = false;      // a release is under way (the device holds nothing of its own any more)
  Pose pose;                // the patch's frame now, moving ballistically
  glm::vec3 velocity{0.f};  // that frame's velocity now, m/s
};

// The largest stretch device d's held core stores along its tethers: max over the fixed vertices and the
// other devices' held cores p of (|x_a - x_p| - L) / L, with a p's anchor in d's patch and L its tether
// length (0 when nothing is tethered or nothing is stretched). A release with less than
// InteractionConfig::release_stretch stored frees the patch at once. Allocation-free.
float stored_stretch(int d, const std::array<ElasticSet, kDeviceCount>& sets,
                     const std::array<Tethers, kDeviceCount>& tethers, const std::vector<uint32_t>& fixed,
                     const uint8_t* is_fixed, const glm::vec3* x, const uint8_t* kinematic);

// Shifts the kinematic velocities of each releasing device's held core (held_core, grasp_saturation.h)
// so that, after a step of h, the distance from each of its anchors to every fixed vertex (`fixed`) and
// to every other device's held core exceeds the tether length (sim/tether.h) by at most
// (1 - 1 / ticks_left) of what it exceeds it by now (start-of-step positions x): the stretch along each
// tether falls linearly to zero over the remaining ticks. A releasing patch takes the whole correction
// against pins and holding devices, half against another releasing one. Gauss-Seidel, `iterations`
// sweeps; a patch's velocity change is capped at max_speed. Returns the number of patches moved.
// Allocation-free.
int relax_released_motion(const std::array<ElasticSet, kDeviceCount>& sets,
                          const std::array<Tethers, kDeviceCount>& tethers,
                          const std::array<GraspRelease, kDeviceCount>& release, const std::vector<uint32_t>& fixed,
                          const uint8_t* is_fixed, float max_speed, float h, int iterations, const glm::vec3* x,
                          const uint8_t* kinematic, glm::vec3* kinematic_velocity);

}  // namespace weft
