#pragma once
// The two correction passes that stages 4 and 5 alternate (sim/world_stages.h): the strain limiter and
// the colliders, each after the first looking only where the other one moved vertices.
#include "sim/step_report.h"
#include "sim/world_model.h"
#include "sim/world_scratch.h"
#include "sim/world_state.h"

namespace weft {

class ContactPasses {
 public:
  ContactPasses(const WorldModel& model, WorldState& state, WorldScratch& scratch, float h);

  // The first collider pass of the tick over every vertex: contacts flagged, normals into the cloth's
  // contact axes, moved vertices recorded.
  void collide_all(CollisionStats& stats);
  // The colliders again, where the last limiting moved vertices (everywhere when boxes are present:
  // they move vertices untracked).
  void collide_again(CollisionStats& stats);
  // The colliders over every vertex without recording what moved (the self-contact rounds).
  void collide_untracked(CollisionStats& stats);
  // The colliders a device drives (hands, tracked body parts) alone over every vertex, those of a device
  // that holds a patch left out (sim/world_stages.h, resolve_driven_contacts).
  void collide_driven(CollisionStats& stats);
  // After collide_driven: the limiter near what the hands pushed with the pushed vertices held where the
  // hands left them (the free cloth follows them), the hands again, and, where an edge at a pinned, held or
  // tracked vertex is still more than kHandYield over the limit, the limiter with the pushed vertices free:
  // the hand sinks into the cloth instead of tearing it from its pin. With the hands last and nothing after
  // them, the hanging demo reached 470 % and cube_drop's 540 %.
  void limit_behind_driven(StrainLimitStats& stats);
  static constexpr float kHandYield = 0.009f;  // issue 37's bar is the limit + 1 %
  // The rigid boxes against the cloth; returns their contacts.
  uint32_t collide_boxes();
  // The limiter over every edge / near what the colliders last moved (everywhere when boxes are present).
  void limit_all(StrainLimitStats& stats);
  void limit_again(StrainLimitStats& stats);
  // Settled once the limiter moves nothing farther than a small share of the thickness: the pair
  // converges geometrically (about halving a pass), and its last millimetre-fractions took most of the
  // passes while a hand dragged the cloth across the table (10.8 passes a tick on average there).
  bool settled(const StrainLimitStats& limited) const;

 private:
  const WorldModel& model_;
  WorldState& state_;
  WorldScratch& scratch_;
  float h_;
  float thickness_;
  // Without boxes each pass looks only where the other one moved vertices (the rest is where the last
  // pass left it): a cloth lying on the table while the hands hold it taut alternated up to 16 full passes
  // a tick (0.3-0.6 ms of a 2 ms tick on the table scene).
  bool incremental_;
  // Held patches met the colliders as a whole before the step (sim/held_clearance.h): pushed out vertex by
  // vertex again here, a patch dragged over a table's edge was torn inside the hand.
  const uint8_t* skip_;
  const uint8_t* held_by_;  // WorldScratch::held_by, or null when no collider follows a device
};

}  // namespace weft
