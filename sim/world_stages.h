#pragma once
// The stages of one tick, in the order World::step runs them, each a function over the world's model,
// its state and the scratch it needs. A second implementation of the step (SIMD, GPU) plugs in here: it
// takes the same model and state and runs the same list.
//
// Why this order (the one place it is decided):
//   1. move_solids      colliders and rigid boxes move to the end of the tick first, so every later stage
//                       sees where the rigid world will be;
//   2. apply_elastics   Volino's elastics: grasps, trackers and pins set kinematic velocities (B) toward
//                       their targets, seams correct velocities (A); held patches are kept out of colliders
//                       and from stretching the cloth past its limit before the step moves them;
//   3. integrate        the linearised implicit step over every force, the kinematic vertices filtered,
//                       and the vertices resting on colliders kept on them with their friction inside the
//                       solve (sim/contact_filter.h: Volino's (B), Baraff & Witkin's filter), and each sewn
//                       seam's pair moved as one vertex by the same filter once all are sewn (sim/sewn_filter.h, mg,
//                       without self-collision);
//   3b. relax_freed     the vertices a grip let go this tick, and their neighbours, finished on the springs
//                       (sim/freed_relaxation.h): the linearised step threw a freed corner across its flat
//                       patch and stretched its edges (+30 % of the hands' input in one tick at 16k);
//   4. resolve_contacts the position corrections (Volino's (A)) right after the step, so every published
//                       state satisfies them: tethers and the strain limiter, then the colliders (for what
//                       arrived this tick) and rigid boxes, alternated while contacts re-stretch edges, the
//                       limiter last; the limiter moves each sewn seam's vertices as one body (sim/sewn_weld.h:
//                       pulling one side alone, then projecting it back, left a seam's edge 130 % stretched);
//   5. resolve_self_contacts  the cloth against itself after the colliders (the layers touching a collider
//                       are held by it), alternated with the colliders, then the limiter again, last;
//   5b. resolve_driven_contacts  the colliders a device drives (hands, tracked body parts) once more, last,
//                       unless their device holds a patch: the alternation above ends with the limiter, which
//                       pulled cloth back through a forearm 1 cm in radius sweeping at 2 m/s (6-12 vertices) and
//                       left vertices 3.6 mm inside a palm at 1.5 m/s (thickness 4 mm, cg and approx). A
//                       holding hand's colliders do not: the cloth round its fist would be torn from the grasp;
//   5c. close_sewn_seams the seams sewn for good (sim/seam.h) projected closed after every correction, so a
//                       published state has them closed;
//   6. update_plasticity reads the corrected shape (sim/plasticity.h): a stretch the limiter takes back
//                       must not set;
//   7. apply_failsafe   last (sim/failsafe.h): whatever the stages before did, no vertex leaves the tick
//                       faster than the drivers and gravity allow, and a passive cloth gains no energy.
#include <vector>

#include <glm/glm.hpp>

#include "sim/step_report.h"
#include "sim/world_model.h"
#include "sim/world_scratch.h"
#include "sim/world_state.h"

namespace weft {

class Integrator;
class SelfCollision;

// 1. Device-driven colliders toward their device's pose, every collider and rigid box advanced by h.
void move_solids(const WorldModel& model, WorldState& state, float h);

// 2. Every device's target through the kinematic safety layer; the elastics' kinematic velocities and
// velocity corrections; held-patch saturation, release slides and clearance; seams (fills stats.grasp).
void apply_elastics(const WorldModel& model, WorldState& state, WorldScratch& scratch, float h, StepReport& stats);

// 2b. After the solve: the vertices the open seams drove are free again, so that the contacts and the limiter
// move them like any other (driven through a collider, a seam's vertex stayed 9 mm inside it).
// They stay marked (WorldScratch::seam_slip) through the contacts: the colliders' friction does not hold
// them back; release_seam_slip, after the contacts, clears the marks.
void free_seam_driven(const WorldModel& model, WorldState& state, WorldScratch& scratch);
void release_seam_slip(WorldState& state, WorldScratch& scratch);

// 3. The integrator's dynamic step from x to x + h v, with the resting contacts it keeps (found first,
// against the colliders where stage 1 left them). x_prev gets the start positions (the colliders'
// continuous checks), the self-collision its start of step.
void integrate(const WorldModel& model, WorldState& state, Integrator& integrator, SelfCollision* self,
               WorldScratch& scratch, float h);

// 4. Tethers, strain limiting, colliders and rigid boxes (fills stats.strain, stats.collision and the
// strain and collision times).
void resolve_contacts(const WorldModel& model, WorldState& state, WorldScratch& scratch, float h, StepReport& stats);

// 5. Self-contacts alternated with the colliders, then limited (adds to stats.strain; fills the
// self-collision time).
void resolve_self_contacts(const WorldModel& model, WorldState& state, SelfCollision& self, WorldScratch& scratch,
                           float h, StepReport& stats);

// 5b. The colliders that follow a device whose device holds nothing, over every vertex (none: nothing).
void resolve_driven_contacts(const WorldModel& model, WorldState& state, WorldScratch& scratch, float h);

}  // namespace weft
