#pragma once
// What a world is made of and what never changes while it runs: the cloth model, its configuration, the
// scene's pins and seams, the colliders and rigid boxes as they stand at time 0, and the tables derived
// from them. A World assembles it (World::add_pin, add_seam, add_collider, add_rigid_box) before its
// first step; the stages only read it. World::edit is the one change while it runs: between ticks, the
// cloth and everything derived from it rebuilt, its pins and seams remapped (sim/world_edit.cpp).
#include <cstdint>
#include <vector>

#include "sim/cloth_model.h"
#include "sim/collider.h"
#include "sim/elastic_constraint.h"
#include "sim/flat_pieces.h"
#include "sim/grasp.h"
#include "sim/rigid_body.h"
#include "sim/seam.h"
#include "sim/tether.h"
#include "sim/world_config.h"

namespace weft {

struct WorldModel {
  ClothModel cloth;
  WorldConfig config;
  std::vector<Collider> colliders;  // at time 0 (WorldState::colliders: where they are now)
  std::vector<RigidBox> boxes;      // at time 0
  ElasticSet pins;                  // elastic pins: identity frame, offset = world target
  SeamSet seams;                    // the scene's seams at time 0 (WorldState::seams: those now)
  std::vector<float> rest_scale;    // per triangle (ntri): the rest shape's scale set by World::edit (1: as built)

  // derived from the above
  std::vector<uint32_t> fixed;      // scene pins and elastic pins
  std::vector<uint8_t> is_fixed;    // 1 for the vertices in `fixed` (nvert)
  VertexAdjacency adjacency;        // vertex neighbours along edges
  FlatPieces flat_pieces;           // which pieces have straight rest geodesics (tethers)
  Tethers pin_tethers;              // long-range tethers to the pins (model and elastic pins)

  float time_step() const { return float(1.0 / config.tick_hz); }
};

// The derived tables for a cloth with its scene pins (no elastic pins, seams, colliders or boxes yet).
WorldModel make_world_model(ClothModel cloth, const WorldConfig& config);

}  // namespace weft
