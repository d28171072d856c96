// Stage 5 of the tick (sim/world_stages.h): the cloth against itself.

#include "sim/contact_passes.h"
#include "sim/self_collision.h"
#include "sim/wall_time.h"
#include "sim/world_stages.h"

namespace weft {
namespace {

constexpr int kSelfColliderRounds = 3;  // self-collision position passes alternated with the colliders
// Collider-then-limiter passes after the self-contacts' last limiting (the limiter has the last word). A
// cloth draped over a box's edge: 0.20 max strain with 1, 0.19 with 2, 0.17 with 16 at twice the p99 tick.
constexpr int kAfterSelfContactPasses = 2;

}  // namespace

void resolve_self_contacts(const WorldModel& model, WorldState& state, SelfCollision& self, WorldScratch& scratch,
                           float h, StepReport& stats) {
  const auto t_start = WallClock::now();
  ClothState& c = state.cloth;
  // Layers touching a collider are held by it: the self-contacts push the layer above them away, rather
  // than the lower layer into the floor (which the colliders would undo next tick, so a pile would never
  // settle).
  if (self.begin_resolve(model.cloth, c, h, scratch.collider_contact.data())) {
    ContactPasses passes(model, state, scratch, h);
    // The colliders push out what the self-contacts pushed into them, which can push it through the
    // layer above (measured: the intersections of the approximate-solver hand fold appeared in that
    // pass). So the two alternate over the same contacts, the newly floor-bound vertices held.
    for (int round = 0; round < kSelfColliderRounds; ++round) {
      self.project(model.cloth, c, h);
      if (state.colliders.empty() || self.contacts().empty()) break;
      CollisionStats again;
      passes.collide_untracked(again);
      if (again.contacts == 0 || round + 1 == kSelfColliderRounds) break;
      self.set_immovable(model.cloth, c, scratch.collider_contact.data());
    }
    self.answer_velocities(c, h);
    // The self-contacts move vertices after the limiting: a pile's layers pushed apart stretch the edges
    // between them (the table scene's demo ended with 36 edges over 10 %, one at 22 %). Limit once more,
    // then alternate with the colliders a little, the limiter last. With the colliders last, a cloth
    // draped over a box's edge ended ticks with edges at 30-176 % (push-outs of a few millimetres
    // across 1.3 cm edges).
    StrainLimitStats again;
    if (!self.contacts().empty()) passes.limit_all(again);  // nothing moved without contacts
    stats.strain.corrected += again.corrected;
    for (int pass = 0; again.corrected > 0 && pass < kAfterSelfContactPasses; ++pass) {
      CollisionStats last;
      passes.collide_again(last);
      again = {};
      passes.limit_again(again);
      stats.strain.corrected += again.corrected;
      if (passes.settled(again)) break;
    }
  }
  stats.timing.self_collision_ms = ms_between(t_start, WallClock::now());
}

}  // namespace weft
