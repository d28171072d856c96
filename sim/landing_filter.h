#pragma once
// Which just-landed vertices the contact filter keeps (sim/contact_filter.h). A vertex that came more than
// the thickness toward its collider last step has just landed, the cloth behind it maybe still falling:
//   - onto it (a link to a free neighbour rising more than 30 degrees off the collider, the neighbour still
//     above it after the next step): held by the filter, the solve knows it rests; left to the pass after the
//     step, the solve pushed it through the floor under the cloth coming down (an annulus in isotropic: 2.6 cm
//     deep at 6.3 m/s) and the pass, lifting it back, crushed the edges above it (4-31 J a tick in a 28 g
//     cloth, thrown at 7 m/s);
//   - beside it (every link flatter, or its neighbours level with it within the step: they fell farther last
//     step than they rise): left to the pass once more, so the solve moves it with its neighbours; held, the
//     neighbours still falling swung their edges about it and stretched them (a flat cloth landing tilted:
//     0.29 J of energy added in one solve, an energy clamp), or crushed them into the floor (a folded disc's
//     upper layer 6-10 mm over the landed lower one, falling 16 mm a tick: 0.23 J in one solve).
#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>

namespace weft {

struct ClothModel;
struct Collider;
struct ContactFilter;

// Drops from `filter` the just-landed vertices (x - x_last along the contact normal under -thickness) with no
// steep link to a free neighbour that rises more than it fell last step. x: positions at the start of the
// step; x_last: at the start of the last.
// Contacts with a collider that follows a device (a palm) are kept as they were: a palm moving onto a
// vertex is what the filter holds (dropped, a vertex tunnelled through a palm at 90 Hz).
void leave_flat_landings(const ClothModel& model, const Collider* colliders, size_t ncollider,
                         const uint8_t* kinematic, const glm::vec3* x, const glm::vec3* x_last, float thickness,
                         ContactFilter& filter);

}  // namespace weft
