#pragma once
// A link crushed by a correction buckles; it does not spring back. The passes after the solve move vertices
// the solve did not (the colliders lift a landed vertex back to the thickness, the self-contacts push layers
// a thickness apart) and crush the links between those and the vertices the solve left where they were:
//   - an irregular annulus in isotropic springs landing on the floor: the links rising from a landed vertex
//     20-34 % shorter after the collider pass; the next solve, the filter holding the landed vertex's normal,
//     could lengthen the steep link only by moving its foot along the floor: 0 -> 5.26 m/s in one solve;
//   - a folded-over disc falling: the self-contacts crushed the links by the fold 5-23 % every tick, the solve
//     stretched them back to +2-4 % and threw a vertex at 6.3-6.6 m/s (the self-contacts then took it back to
//     5, and passed 5.3 on to a neighbour at the landing).
// A real cloth buckles there; a linear spring, as stiff in compression as in tension, stores the crush (0.7 J
// in one 2.5 cm link of a 28 g cloth at 34 %) and gives it back in one solve. So a spring link the corrections
// crushed past kBuckleStrain pushes with at most its force at kBuckleStrain (its Jacobian unchanged: the solve
// still resists crushing it further) until it is back within kBuckleStrain. The links the solve itself
// compresses, and the weave models (soft in compression already), are unchanged: a cap on every compressed
// link changed every scene (docs/decisions/compression-cap-everywhere.md: at 2 %, cube_drop's demo 7 -> 47
// speed clamps). Nor does a link buckle
//   - at a rigid box or a device's collider: their passes press on the cloth every tick from outside the solve,
//     and buckled there the cloth gave way under cube_drop's rocking crate (7 -> 46 clamps);
//   - while a hand or tracker holds the cloth (World::step): bunched by two hands, the buckled 16k sheet of
//     `validate self-collision`'s hand crumple piled up (59 772 self-contacts against 26 663) and ended with 2
//     new intersections;
//   - where it is crushed in a heap (mark_buckled_links): only at a landing, or in the flight after a release.
// In the flight after a release (a grip let go; nothing holds the cloth or touches it since) nothing but the
// corrections compresses a link: a folded-over disc falling had the links by its fold crushed 5-23 % by the
// self-contacts every tick, the solve gave that spring energy back as motion (v80 out of the solve at 6.0-6.6
// m/s every tick, the self-contacts taking it back to 4.6-5.1), and the fastest vertex passed its own ballistic
// speed by 0.24 m/s (5.17 m/s, bound 5.04). Volino's view: a correction must not add energy. Such a link
// buckles with no compressive force at all (kBuckledInFlight) until it is back at its rest length; capped at
// the landing's 2 % force instead, the fold's links still pushed through the fall (5.32 m/s). Not in every
// flight: a folded cloth floating weightless and never released (world_edit_test's cut fold), its layers in a
// steady fight with the self-contacts for seconds, crumpled with its crushed links buckled (246 links, 9
// crossing pairs; docs/decisions/in-flight-buckling.md).
#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>

namespace weft {

struct ClothModel;
struct RigidBox;
struct Collider;

// The compression (1 - l / l0) past which a crushed link pushes no harder.
inline constexpr float kBuckleStrain = 0.02f;

// How a link buckled (ClothState::buckled, per structural link): at a landing it pushes with at most its force
// at kBuckleStrain until it is back within that strain; in free flight it pushes not at all until it is back
// at its rest length (continuous: no force appears when the mark goes).
inline constexpr uint8_t kBuckledAtLanding = 1, kBuckledInFlight = 2;

// The tension (N, < 0 compressed) of a spring of stiffness k and rest length l0 at length l, buckled: k (l - l0),
// but not below -k strain l0.
inline float buckled_tension(float k, float rest_length, float length, float strain) {
  const float t = k * (length - rest_length);
  const float floor = -k * strain * rest_length;
  return t < floor ? floor : t;
}

// How near a rigid box or a device's collider (in contact thicknesses) a link's end is exempt.
inline constexpr float kPushedReach = 1.5f;

// Whether buckling applies to the model: spring links (StretchModel::Springs); the other models' links carry
// no elastic force of their own.
bool springs_buckle(const ClothModel& model);

// The structural links' lengths (nedge) after the solve, before the corrections.
void record_solved_lengths(const ClothModel& model, const glm::vec3* x, float* solved_length);

// After the corrections: marks in `buckled` (nedge) each structural link shorter than (1 - strain) l0 that
// the corrections shortened (below its solved length) or that was marked already (kept as above); clears the
// others. Returns whether any link is marked.
// Links with an end within `reach` of a rigid box or of a collider that follows a device are not marked (see
// above).
// A link is newly marked only where an end just landed (kBuckledAtLanding): within `reach` of a static
// collider, having come more than `thickness` toward it this step (from x_start); or anywhere while the cloth
// is `in_flight` (kBuckledInFlight; World::step decides: since a release, cloth_in_flight every tick). Crushed
// in a heap (the self-contacts of a sheet bunched on the floor: 5 new intersections in the reduced hand
// crumple) it stays a spring.
bool mark_buckled_links(const ClothModel& model, const glm::vec3* x, const float* solved_length, float strain,
                        const RigidBox* boxes, size_t nbox, const Collider* colliders, size_t ncollider, float reach,
                        const glm::vec3* x_start, float thickness, uint8_t* buckled, bool in_flight = false);

// Whether the cloth flies free after this tick's corrections: no vertex is kinematic (a pin, a grasp, a
// tracker), none touched a collider (`in_contact`, nvert: WorldScratch::collider_contact, filled by the CPU
// collider passes) and none is within `reach` of a rigid box (whose pass does not mark its contacts).
bool cloth_in_flight(const uint8_t* kinematic, const uint8_t* in_contact, const glm::vec3* x, size_t nvert,
                     const RigidBox* boxes, size_t nbox, float reach);

// Whether a collider that follows a device (a palm, a forearm) is within `reach` of a vertex: a hand pushing
// through the cloth, like one holding it, keeps it from buckling (a palm driven through a hanging cloth at
// 2 m/s, 90 Hz: two vertices tunnelled through it with the links behind it buckled).
bool device_touches(const Collider* colliders, size_t ncollider, const glm::vec3* x, size_t nvert, float reach);

// Adds to `force` (nvert) what brings each marked link's force on its ends to buckled_tension's (at `strain`
// for kBuckledAtLanding, at 0 for kBuckledInFlight).
void cap_buckled_links(const ClothModel& model, const glm::vec3* x, const uint8_t* buckled, float strain,
                       glm::vec3* force);

}  // namespace weft
