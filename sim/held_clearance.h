#pragma once
// A held patch meets the world's colliders as one piece. The colliders push each vertex out on its own,
// held ones included (left to their hand, a held patch dragged over a table's edge went through it),
// so a patch dragged against an edge was torn apart inside the hand: the vertices already over the
// edge pushed up, those still in front of it pushed forward, the edge between two held vertices 71 %
// long in the table demo. Before the step, each device's fully held patch is therefore moved, as a
// whole, out of every collider that clears_held_patches (collider.h: boxes, spheres and capsules that do
// not follow a device) by the deepest penetration its end-of-step positions would have, a few times for
// edges and corners. The hand goes on; the cloth in it slides over the surface.
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/collider.h"
#include "sim/elastic_constraint.h"
#include "sim/pose.h"

namespace weft {

// Adds to the kinematic velocities of each device's held core (held_core, grasp_saturation.h) the
// shift / h that puts its predicted end-of-step positions (x + h kinematic_velocity) at least
// `thickness` outside every collider that clears_held_patches (colliders at their end-of-step
// pose); shift (per device, m) says by how much. A velocity, so that the step's continuous collision
// checks see the motion (moved before the step, a patch jumped through the layer above it unseen: a
// crossing left in the 16k crumple). Returns the number of devices whose patch was moved. Allocation-free.
int clear_held_of_colliders(const std::array<ElasticSet, kDeviceCount>& sets, const std::vector<Collider>& colliders,
                            const uint8_t* is_fixed, float thickness, float h, const glm::vec3* x,
                            const uint8_t* kinematic, glm::vec3* kinematic_velocity,
                            std::array<glm::vec3, kDeviceCount>& shift);

// After the step: takes the shift back out of the held cores' velocities. It is where the surface stopped
// the patch, not motion the patch keeps (kept, it came back every tick a hand held the cloth against a
// table, and a release threw it).
void forget_held_shift(const std::array<ElasticSet, kDeviceCount>& sets,
                       const std::array<glm::vec3, kDeviceCount>& shift, const uint8_t* is_fixed, float h,
                       const uint8_t* kinematic, glm::vec3* v);

}  // namespace weft
