#pragma once
// Fills a ClothSnapshot from a World on the thread that owns it: positions, area-weighted vertex
// normals, per-vertex strain, pin/kinematic flags and what each hand and tracker holds. Where the hands
// and trackers are is the caller's (it knows the poses it applied). No allocation once the snapshot is sized.
#include "engine/snapshot.h"
#include "sim/world.h"

namespace weft {

// Area-weighted vertex normals of the triangles (unnormalised cross products summed, then normalised).
void compute_vertex_normals(const std::vector<glm::vec3>& position,
                            const std::vector<std::array<uint32_t, 3>>& triangles, std::vector<glm::vec3>& normal);

// Per vertex, the largest |l / l0 - 1| over its structural edges, signed (the most stretched or, if
// larger in magnitude, the most compressed): what the strain heat map shows.
void compute_vertex_strain(const ClothModel& model, const std::vector<glm::vec3>& position, std::vector<float>& strain);

// The collider drawn as the table (SceneProps::table): the first box that is not turned and neither
// follows a device nor moves by its own velocities; -1 if none.
int table_collider_index(const std::vector<Collider>& colliders);

// The solids the renderer draws: every sphere, capsule and box collider but the table, then the rigid
// boxes, at their poses now (the first ClothSnapshot::kMaxSolids; the rest counted).
void fill_solids(const World& world, ClothSnapshot& snapshot);

// Everything a snapshot needs from the world: grasp bits (World::grasp_mask) and, per hand and tracker
// gizmo, the vertices it holds (World::held_vertices). The gizmos' poses are the caller's (the sim thread
// fills them from the poses it applied).
void fill_snapshot(const World& world, ClothSnapshot& snapshot);

}  // namespace weft
