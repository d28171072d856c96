#pragma once
// The first solve of vertices a grip has just let go, finished on the springs themselves. A held patch is
// kinematic and flat in the hand's frame while the cloth beside it hangs: its border is creased, and the
// bending links there push on its vertices with nothing but the grip to hold them. Freed, a vertex of the
// cloth's corner (a quarter of a quad's mass, 1.5 mg at 16k) is pushed across the flat patch, the direction
// in which its edges, at their rest length, have no linear stiffness: the linearised step (one Newton
// iteration of backward Euler) moves it to where the bending link alone would balance, 3.5 mm up in one tick
// in `weft validate interaction`, and the edges it leaves behind stretch to second order (4-5 %). With
// damping 0 the cloth's total energy rose in that one tick by 26 % (4k) to 30 % (16k) of all the hands had
// put in, and the next tick took it back.
// So, on the tick a vertex is freed, where the solve raised the energy of it, its neighbours and their links
// above the step's start (elsewhere nothing overshot: docs/decisions/freed-relaxation-always.md), each of
// them is moved to the minimum of its own backward Euler potential, the rest of the cloth held where the
// solve left it (nonlinear Gauss-Seidel on
// Phi(y) = m / (2 h^2) |y - x0 - h v0 - h^2 g|^2 + sum over its links 1/2 k (|y - x_j| - L)^2), and its
// velocity made (y - x0) / h, as the solve's update would: the second Newton iteration the linear solve
// skipped, on the few vertices where it matters. Each local step lowers Phi (Newton with the links' Hessian
// made positive semi-definite, and halved until it lowers it). For the spring models (Springs; Volino's
// triangles through their edges' axial stiffness, an approximation); not for the weft/warp triangles,
// whose energy is not the links'.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace weft {

struct ClothModel;
struct ContactFilter;

// Gauss-Seidel sweeps over the freed vertices and their neighbours: the patch's border moves with its corner.
inline constexpr int kFreedRelaxationSweeps = 4;

// Scratch, sized once for the model (nvert, nlink).
struct FreedRelaxation {
  std::vector<uint32_t> freed;     // the vertices held last tick (WorldState::elastic_held), then those freed
  std::vector<uint32_t> vertices;  // the freed ones first, then their neighbours along edges, to relax
  std::vector<uint8_t> in_set;     // 1 where a vertex is in `vertices` (nvert)
  std::vector<uint32_t> links;     // the links with an end in `vertices`
  std::vector<glm::vec3> v_start;  // the velocity each of `vertices` started the step with
  void resize(size_t vertex_count, size_t link_count);
};

// Relaxes `vertices` (those free and not in `filter`: a contact's normal belongs to its collider) by
// `sweeps` Gauss-Seidel sweeps over the local potential above, from the solved positions x, over the
// given links (each with an end among the vertices); x0 is the step's start (nvert), v0 the start velocity
// of each entry of `vertices`. Sets x and v of the vertices it moves; returns the number of local moves
// made over all sweeps (0: nothing moved). Nothing moves where the solve did not raise the energy (kinetic,
// gravity, links) of the vertices and their links above the step's start. Allocation-free.
size_t relax_freed(const ClothModel& model, const std::vector<uint32_t>& vertices, const std::vector<uint32_t>& links,
                   const uint8_t* kinematic, const ContactFilter* filter, const glm::vec3* x0, const glm::vec3* v0,
                   float h, int sweeps, glm::vec3* x, glm::vec3* v);

// The step's side (World::step). Before apply_elastics: keeps the vertices held last tick.
void note_held_vertices(const std::vector<uint32_t>& elastic_held, FreedRelaxation& r);
// After apply_elastics: which of them are free now, their neighbours, the links to relax and the start
// velocities (sim/release_grip.h takes its throw from the same set). False where none was freed; the caller
// relaxes only where the model's energy is its links' (not the weft/warp triangles).
bool begin_freed_relaxation(const ClothModel& model, const std::vector<uint32_t>& adjacency_offset,
                            const std::vector<uint32_t>& adjacency_neighbour, const uint8_t* kinematic,
                            const glm::vec3* v, FreedRelaxation& r);

}  // namespace weft
