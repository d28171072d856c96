#pragma once
// The rigid boxes' exchange with the cloth resting on them, implicit (issue 34: cube_drop.json's speed
// clamps and its crate that never came to rest). The vertices resting on a box are held by the solve's
// contact filter like those on a static collider (sim/contact_filter.h), their normal velocity the box's at
// their point. The box's velocity u is then an unknown of the same step: with M its mass and inertia (6x6),
// u* its free motion (stage 1: gravity) and work_k(u) the impulse the solve needs to move contact k's vertex
// with the box,
//     M (u - u*) = -sum_k J_k^T work_k(u),      J_k du = dV + dw x r_k,
// backward Euler for the crate and its cloth together. It is solved by Newton-like steps on u, each after a
// cloth solve with the box at its latest u:
//     (M + sum_k J_k^T D_k J_k) du = -sum_k J_k^T work_k(u) - M (u - u*),
// D_k the contact vertex's diagonal block of the step's matrix (along the normal; across it the friction's
// damping in series with it), a lumped Schur complement of the cloth's rows onto the box's six. W_kk bounds
// the complement from above, so the steps converge without overshoot (about 0.6 a step on cube_drop.json).
// One step alone (each tick's impulse on the box from a solve at u*) left the crate rocking at 10 Hz for the
// whole demo, and with D = 0 (the impulse applied as is: docs/decisions/boxes-in-the-contact-filter.md) the
// exchange overshot and spun the crate up to 18-43 rad/s. Converged, the step is backward Euler for a crate
// on a sheet much stiffer than its corner (0.29 kg per vertex against 37 g): landing on a corner, the sheet
// returned half the landing and cube_drop.json's crate hopped and tumbled off its cloth
// (docs/decisions/boxes-newton-in-the-solve.md), so the last step is made inelastic for the box
// (inelastic_exchange): the cloth may take the box's energy, not give it back.
#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>

namespace weft {

struct ContactFilter;
struct RigidBox;

// A change of a box's velocity: of its centre, m/s, and its spin, rad/s (world frame).
struct BoxTwist {
  glm::vec3 linear{0.f};
  glm::vec3 angular{0.f};
};

// Box b's Newton step du after a solve (ContactFilter::work recorded; lumped_mass too, else the vertices'
// masses stand for D), `moved` its change from u* so far this tick; x the solved positions. False (du = 0)
// when nothing rests on the box or the system is singular.
bool box_velocity_change(const ContactFilter& filter, const float* mass, const glm::vec3* x, const RigidBox& box,
                         uint32_t b, const BoxTwist& moved, BoxTwist& du);

// The exchange made inelastic for the box, called before the last step du is applied (`moved` the change
// from the free motion so far): the cloth may take the box's energy, never give it back. The whole change
// from the free motion, T = moved + du, is scaled to the largest share s in [0, 1] that leaves the box's
// mechanical energy (kinetic, spin, height) no higher than at the start of the tick, and du becomes
// s T - moved. Returns s. The backward-Euler cloth under a landing corner stores the landing and returns
// about half of it in the ticks after (the sheet is 0.29 kg stiff per vertex, the crate's corner 37 g):
// cube_drop.json's crate hopped on it and tumbled off its cloth.
// A gain under the box's weight lifted by kInelasticSlack (0.1 mJ for cube_drop's 0.2 kg crate) passes.
constexpr double kInelasticSlack = 5e-5;  // m
float inelastic_exchange(const RigidBox& box, const BoxTwist& moved, const glm::vec3& gravity, float h, BoxTwist& du);

// The box's velocity and end-of-tick pose changed by du.
void move_box(RigidBox& box, const BoxTwist& du, float h);

// Box b's contacts follow du: in the filter, for the next solve (their imposed normal velocity change), or in
// the solved cloth (their vertices' normal velocity and position). `box` before move_box.
void follow_box_in_filter(ContactFilter& filter, const glm::vec3* x, const RigidBox& box, uint32_t b,
                          const BoxTwist& du);
void follow_box_in_cloth(const ContactFilter& filter, const RigidBox& box, uint32_t b, const BoxTwist& du, float h,
                         glm::vec3* x, glm::vec3* v);

}  // namespace weft
