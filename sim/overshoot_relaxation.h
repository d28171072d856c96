#pragma once
// The vertices the linearised solve carried past where their links' linearisation holds, finished on the
// springs. A link at or under its rest length has no linear stiffness across it (its transverse term is
// dropped: Kang & Cho Eq. 22), so one Newton iteration of backward Euler can move a vertex of a straight,
// relaxed run of links across the run by millimetres a tick (a cloth's top edge between two hands, the
// vertices beside a pin): the true, nonlinear links then stand stretched by the move's second order, and the
// vertex leaves the tick at 2-4 m/s, the fail-safe's speed clamps in `weft stress`
// (docs/decisions/step-split-variants.md traced all 37 to the solve).
// The condition is measurable: a structural link the solve stretched by more than `kOvershootStrain` above
// its start (or above its rest length, if it started compressed) was linearised outside its range. Its free
// ends and their neighbours then get the second Newton iteration the solve skipped, locally: the same
// minimisation of their backward Euler potential as the freed vertices' (sim/freed_relaxation.h), the rest
// of the cloth where the solve left it, and only where the solve raised the set's energy.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace weft {

struct ClothModel;
struct ContactFilter;

// A link's strain gained in one solve past which its linearisation no longer holds (a relaxed link moved
// across by a third of its length gains about 5 %; a hand pulling at the limit's own speed gains 0.1 % a tick).
inline constexpr float kOvershootStrain = 0.02f;
// Only a vertex within this many links of a kinematic or pinned vertex counts as overshot (its neighbours
// are relaxed with it wherever they are): beside what holds the cloth the solve's throw has nowhere to go
// but across the run (`weft stress`: everywhere 7 speed clamps, within 1 link 14, within 2 links 9), while a
// cloth thrown as a whole far from any hold (a strip sliding off a tilted forearm, hand_colliders_test.cpp)
// is the solve's to move: relaxed there it took 16 clamps.
inline constexpr int kOvershootAnchorRings = 2;
// At most this many vertices are relaxed in one tick (the local passes cost |vertices| x |links|): a tick
// with more is a solve that went wrong wholesale, which the local second iteration does not repair.
inline constexpr size_t kOvershootMaxVertices = 96;

// Scratch, sized once for the model (nvert, nlink).
struct OvershootRelaxation {
  std::vector<glm::vec3> v_start;  // every vertex's velocity as the solve started (nvert)
  std::vector<uint8_t> in_set;     // 1 where a vertex is in `vertices` (nvert)
  std::vector<uint32_t> vertices;  // the overshot vertices and their neighbours
  std::vector<uint32_t> links;     // the links with an end in `vertices`
  std::vector<glm::vec3> v_entry;  // v_start of each entry of `vertices`
  std::vector<glm::vec3> x_solved;  // where the solve left each entry of `vertices`
  void resize(size_t vertex_count, size_t link_count);
};

// Before the solve (after the elastics set the kinematic velocities): the start velocities.
void note_solve_start(const glm::vec3* v, size_t vertex_count, OvershootRelaxation& r);

// After the solve: finds the overshot vertices (free, not kept by a contact of `filter`) from the start
// positions x0 and the solved x, and relaxes them and their neighbours (relax_freed's local minimisation,
// `sweeps` Gauss-Seidel sweeps). Returns the number of overshot vertices found (0: nothing to do).
// Allocation-free.
size_t relax_overshoot(const ClothModel& model, const std::vector<uint32_t>& adjacency_offset,
                       const std::vector<uint32_t>& adjacency_neighbour, const uint8_t* kinematic,
                       const ContactFilter* filter, const glm::vec3* x0, float h, int sweeps, glm::vec3* x,
                       glm::vec3* v, OvershootRelaxation& r);

}  // namespace weft
