#pragma once
// The grip's friction on the tick it lets go. A held patch is kinematic and flat in the hand's frame while the
// cloth beside it hangs: its border is creased, and the bending links there store energy that only the grip
// holds. Freed, the first solve turns that crease into motion of the patch: in `weft validate interaction`
// (hands still) the grasped corner left upward at 0.84 m/s out of the solve, 0.93 m/s once the freed
// relaxation (sim/freed_relaxation.h) had finished the step on the springs (4k; 0.33-0.48 m/s at 16k), and
// stopped the next tick. The positions the solve and the relaxation reach are the cloth's own (the flap
// unfolds to where its links balance); the speed is the crease thrown, which a hand that opens does not
// throw: the cloth slides out through the fingers and their friction takes it.
// So, on the tick a vertex is freed, it keeps the velocity it started the step with (the hand's) plus
// gravity's over the tick, where the solve gave it more speed than that; where the solve slowed it (the cloth
// behind a throw) its velocity stays the solve's: the grip takes speed, it never gives it. Its neighbours keep
// the solve's velocity: slowed too, the damping-0 run of `weft validate interaction` at 16k gained energy after
// the release, 0.13 of the hands' input against a bar of 0.01 (docs/decisions/release-grip-neighbours.md).
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace weft {

struct ContactFilter;

// For each of the first `count` of `vertices` (v_start[k] its velocity at the step's start), free and not held
// by a collider contact in `filter` (its normal belongs to the collider): v = v_start + h g where |v| exceeds
// that.
// Returns the number of vertices slowed. Allocation-free.
size_t take_release_throw(const std::vector<uint32_t>& vertices, size_t count, const std::vector<glm::vec3>& v_start,
                          const uint8_t* kinematic, const ContactFilter* filter, glm::vec3 gravity, float h,
                          glm::vec3* v);

}  // namespace weft
