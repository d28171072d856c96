#pragma once
// Buffers a step and the input events use and leave nothing in that the next tick reads as state: sized
// once for the model, so no tick allocates.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/box_coupling.h"
#include "sim/collider.h"
#include "sim/contact_filter.h"
#include "sim/elastic_constraint.h"
#include "sim/freed_relaxation.h"
#include "sim/grasp.h"
#include "sim/strain_limit.h"
#include "sim/tether.h"
#include "sim/vertex_set.h"

namespace weft {

struct ClothModel;

struct WorldScratch {
  GraspScratch grasp;                   // grasp selection's breadth-first search
  ElasticAccumulator elastic;           // every elastic's demanded velocity per vertex
  TetherScratch tether;                 // tether builds on grab and attach
  StrainLimitScratch strain;            // the limiter's worklists
  std::vector<glm::vec3> x_prev;        // positions at the start of the step (nvert)
  std::vector<glm::vec3> v_start;       // velocities the solve starts from, kept during a release slide (nvert)
  std::vector<uint8_t> collider_contact;  // 1 where a vertex touched a collider this tick (nvert)
  VertexSet collider_moved;             // what the last collider pass moved
  std::vector<float> solved_length;     // per structural link (nedge): its length after the solve (sim/buckled_links.h)
  ContactFilter last_contact_filter;    // the previous step's filter while this step's is built
  // The colliders and then each rigid box as a collider, for the solve's contacts (reserved as they are added).
  std::vector<Collider> solids;
  // The cloth at the start of the solve, solved again while a box's velocity converges (sim/box_coupling.h),
  // and each box's change from its free motion so far and its last Newton step (nvert; nbox).
  std::vector<glm::vec3> box_solve_x, box_solve_v;
  std::vector<BoxTwist> box_moved, box_step;
  // Per vertex, bit d set while device d holds it or it slides out of d's grip (nvert): a collider that
  // follows d leaves it alone (sim/collider.h held_by_own_device). Filled at the start of a tick, only
  // while some collider follows a device (held_by_live).
  std::vector<uint8_t> held_by;
  bool held_by_live = false;
  uint8_t holding = 0;  // bit d set while device d holds a patch or lets one slide out
  // 1 where a vertex is kinematic or a hand's collider has just pushed it (nvert): the limiter after the
  // hands' pass moves the free cloth toward what they pushed, not the pushed vertices back into them.
  std::vector<uint8_t> pushed_or_kinematic;
  // 1 where an open seam drove the vertex through this tick's solve (nvert), from free_seam_driven to
  // release_seam_slip: the colliders keep it out without friction. A seam's pull decays with its gap, and
  // static friction held every pair of a cut sewn back on table.json 2.2 mm open (0 of 73 sewn).
  std::vector<uint8_t> seam_slip;
  // Per vertex, the mass of the piece it belongs to (sim/seam.h piece_masses): which side of an open seam
  // stays. Set when the seams change (World::seams_changed); empty without seams.
  std::vector<float> piece_mass;
  FreedRelaxation freed;  // the vertices a grip let go this tick (sim/freed_relaxation.h)
  bool release_recoil_due = false;  // this tick's solve ends in the release recoil (sim/release_recoil.h)
  // World::step reads the state between the solve and stage 4 this tick (the fail-safe's post-solve energy
  // on a passive tick, the buckled links' solved lengths): the GPU step then brings that state back too.
  bool solved_state_read = true;

  void resize(const ClothModel& model);
};

}  // namespace weft
