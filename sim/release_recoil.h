#pragma once
// The recoil of a released stretch, taken by the grip. A held cloth stores elastic energy: stretched near the
// saturation strain against another hand or a pin (sim/grasp_saturation.h), bent and sheared by the shake.
// Freed, the solve turns it into motion: a denim strip pulled 20 % wider and let go mid-shake went from 9 mJ
// of kinetic energy to 37 mJ in the 18 ticks of its slide (grasp_release.h), its elastic energy from 76 mJ to
// 2 mJ, its mass centre thrown sideways at twice the hand's speed (the tension straightening the shaken strip
// like a bowstring); a denim annulus freed at once gained 0.9 mJ over its 6.6 mJ in two ticks. A hand that
// opens does not throw what it held: the cloth slides through the fingers and their friction takes it.
// So, for a window after a release (the slide, then release_time more) and while nothing else drives the
// cloth, the kinetic energy may not exceed what the cloth had when the window opened plus the height it has
// lost since (issue 34's budget): each tick, the solve's velocity change (once no patch slides: its part
// about the change's mean, so that the cloth keeps its momentum) is scaled down until it does, and by no more than the elastic energy the solve released (a velocity
// correction, Volino's (A); positions stay where the solve put them: put back where the corrected velocity
// would have taken them, the stretch the solve had relaxed came back each tick, and with the released patches
// sliding in it grew from 1.8 J to 50 J in a slide). Kinematic vertices are left as they are.
#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>

namespace weft {

struct WorldModel;
struct WorldState;
struct WorldScratch;

// The window after a release (part of WorldState).
struct ReleaseRecoil {
  uint32_t ticks_left = 0;  // ticks the window stays open (World::detach and free_patch open it)
  bool rebase = true;       // the budget is taken afresh at the next tick the window applies
  double budget = 0;        // J: kinetic plus gravitational energy of the whole cloth when it was taken
  double elastic_start = 0; // J: the cloth's elastic energy at the start of this tick's solve
};

// The scale s in [0, 1] for the free vertices (kinematic[i] == 0), from v0 (the start of the step) to v (the
// solve's, which moved them by h v), of their velocity change about `shift` (0, or the change's mean):
//   v_i(s) = b_i + s (v_i - b_i), b_i = v0_i + shift,
// largest with sum 1/2 m |v_i(s)|^2 <= sum 1/2 m |v0_i|^2 + sum m g . h v_i - over, `over` the energy
// (kinetic plus gravitational) by which the cloth already exceeds its budget before the step's change.
// f(s) = A s^2 + B s + C is quadratic; 1 when f(1) <= 0, 0 when f(0) > 0. At most max_taken (J) is taken:
// past it, the scale takes max_taken off f(1) and no more (1 when max_taken <= 0). Pure, allocation-free.
float recoil_scale(const float* mass, const uint8_t* kinematic, const glm::vec3* v0, const glm::vec3* v, size_t n,
                   glm::vec3 gravity, float h, double over, double max_taken, glm::vec3 shift = glm::vec3(0.f));

// Opens (or extends) the window: release_time's ticks from now, budget taken afresh.
void open_release_recoil(const WorldModel& model, WorldState& state);

// Whether this tick's solve runs in an open window and no device holds a patch, no open seam drives the cloth
// (their work is not gravity's); counts the window down. Where it applies, keeps the velocities the solve
// starts from (WorldScratch::v_start) and, if due, takes the budget.
bool begin_release_recoil(const WorldModel& model, WorldState& state, WorldScratch& scratch);

// After the solve (where begin_release_recoil applied): scales the free vertices' non-gravity velocity change
// by recoil_scale, taking no more than the elastic energy the solve released. Returns the scale (1: nothing
// changed).
float end_release_recoil(const WorldModel& model, WorldState& state, const WorldScratch& scratch, float h);

}  // namespace weft
