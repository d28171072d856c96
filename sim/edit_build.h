#pragma once
#include <array>
// What a cut or a removal makes of the cloth model (sim/cloth_edit.h): the new model and everything that
// depends on the topology alone (adjacency, flat pieces, pin tethers, the integrator's colouring and
// multigrid, the self-collision hierarchy). It reads only its inputs, never the world's state, so it runs
// on the sim thread (World::edit) or on the edit worker while the world steps on (sim/edit_worker.h); the
// world then only carries its state over (World::land_edit). Same inputs, same build, on either thread.
#include <memory>
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth_edit.h"
#include "sim/cloth_model.h"
#include "sim/cloth_state.h"
#include "sim/elastic_constraint.h"
#include "sim/flat_pieces.h"
#include "sim/grasp.h"
#include "sim/integrator.h"
#include "sim/mesh_edit.h"
#include "sim/self_collision.h"
#include "sim/tether.h"
#include "sim/world_config.h"

namespace weft {

// The cloth an edit applies to: the model as it will be when the edit lands, read-only for the build.
struct EditBase {
  const ClothModel* cloth = nullptr;
  const std::vector<float>* rest_scale = nullptr;     // per triangle
  const ElasticSet* pins = nullptr;                   // the elastic pins (vertex-indexed)
  const std::vector<uint32_t>* leaf_order = nullptr;  // the self-collision hierarchy's (null: self-collision off)
};

struct EditBuild {
  EditReport report;  // refused, or applied with its counts and the stages built here (mesh, model,
                      // adjacency, integrator, self_collision, tethers: the pin tethers)
  MeshEdit me;
  ClothModel cloth;
  std::vector<float> rest_scale;       // per new triangle
  ElasticSet pins;                     // the elastic pins carried to the new vertices (every copy)
  std::vector<uint32_t> to_new;        // old vertex -> its primary copy (UINT32_MAX: removed) (old nvert)
  std::vector<uint32_t> next_copy;     // new vertex -> the next copy of the same old vertex (nvert')
  VertexAdjacency adjacency;
  FlatPieces flat_pieces;
  Tethers pin_tethers;                 // from the scene's pins and the elastic pins
  std::unique_ptr<Integrator> integrator;
  std::unique_ptr<SelfCollision> self;  // null while self-collision is off
  // The cut's new twins (sim/cut_twins.h): the copies of one old vertex or of one point on an old edge,
  // found here while self-collision is on (the landing adds the old live twins carried).
  std::vector<std::array<uint32_t, 2>> twins;
  ClothState state;  // the new cloth's rest state (make_rest_state), which the landing fills: its memory
                     // allocated and touched off the sim thread

  // What the landing replaced, freed with the build: by the edit worker for a queued edit (freeing a 16 k
  // cloth's integrator and hierarchy took the sim thread up to 9 ms).
  struct Retired {
    ClothModel cloth;
    ClothState state;
    VertexAdjacency adjacency;
    FlatPieces flat_pieces;
    Tethers pin_tethers;
    std::unique_ptr<Integrator> integrator;
    std::unique_ptr<SelfCollision> self;
  } retired;
};

// A Cut or Remove edit of `base` with the cloth at positions x (base's vertices): fills `out`, or sets
// out.report.refused (and leaves the rest empty). self_on_thread: the hierarchy is built on a second thread
// while the integrator is (the result is the same either way).
void build_edit(const ClothEdit& edit, const EditBase& base, const WorldConfig& config, const glm::vec3* x,
                bool self_on_thread, EditBuild& out);

// The elastic set carried through an edit: each vertex to every copy of it (a cut through a grip leaves
// both lips held); removed vertices drop out. `scratch` keeps its capacity between calls.
void carry_elastic_set(ElasticSet& set, const std::vector<uint32_t>& to_new, const std::vector<uint32_t>& next_copy,
                       ElasticSet& scratch);

}  // namespace weft
