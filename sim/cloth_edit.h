#pragma once
// An edit of the cloth's topology or rest shape, applied by World::edit between ticks (the one exception
// to a model fixed while the world runs): Volino & Thalmann 1997 Fig. 5's cut (5c), removal of extra
// material and local expansion or shrinking (5b/5d).
#include <cstdint>

#include <glm/glm.hpp>

namespace weft {

enum class EditKind : uint8_t { Cut, Remove, Scale };

struct ClothEdit {
  EditKind kind = EditKind::Cut;
  glm::vec3 from{0.f}, to{0.f};  // Cut: the blade segment (world, m); Remove, Scale: the brush centre is `from`
  float radius = 0.02f;          // Cut: how near the segment the cloth is cut; Remove, Scale: brush radius (m)
  float factor = 1.f;            // Scale: rest lengths inside the brush times this (>1 expand, <1 shrink)
};

struct EditReport {
  EditKind kind = EditKind::Cut;
  bool applied = false;
  const char* refused = nullptr;  // why not (a static string) when !applied
  // vertices (triangles) before + added - removed = after; a cut removes the crumbs it cut loose (pieces
  // under half the mean triangle's area, sim/mesh_remove.h)
  uint32_t vertices_added = 0, vertices_removed = 0, triangles_added = 0, triangles_removed = 0;
  float mass_removed = 0.f;       // kg: what a removal took, or the crumbs a cut dropped
  double rebuild_ms = 0.0;        // wall time of the rebuild
  // Where it went (ms; docs/performance.md's rebuild table): the mesh edit (cut or removal), the new cloth
  // model, the state and the vertex-indexed tables carried over, adjacency and flat pieces, the integrator
  // (colouring, multigrid hierarchy, block matrices), the self-collision hierarchy (built on a second thread
  // meanwhile: its time overlaps all the others but the mesh's and the model's), the tethers.
  struct Stages {
    double mesh = 0, model = 0, state = 0, adjacency = 0, integrator = 0, self_collision = 0, tethers = 0;
  } stage_ms;
  // A queued edit (World::queue_edit) is built on the edit worker while the world steps on (stage_ms: the
  // worker's stages, its state stage empty) and lands after the step that reaches landing_step. `queued`:
  // the report queue_edit returns (applied and refused not known yet: World::landed_edit says, once landed).
  bool queued = false;
  uint64_t landing_step = 0;
  double worker_ms = 0;   // the worker's wall time for it, its copy of the model it applies to included
  // What landing cost the sim thread (ms): waiting for a late build, the state carried over (positions,
  // contacts, grasps, pins, seams, hinge angles), the world's tables swapped and the scratch resized, the
  // held patches' tethers; total the sum.
  struct Landing {
    double wait = 0, state = 0, tables = 0, tethers = 0, total = 0;
  } landing_ms;
};

}  // namespace weft
