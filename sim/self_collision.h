#pragma once
// Cloth self-collision after Volino, Courchesne & Thalmann 1995: proximities (vertex-triangle and
// edge-edge closer than the thickness) found through a triangle BVH with the curvature criterion
// (section 4.1, 4.2), answered by position then velocity corrections that conserve momentum,
// perfectly inelastic along the normal with Coulomb friction along the tangent, iterated over all
// contacts (section 3.5). Each contact is oriented by the side its features were on at the start of
// the step (the "cinematical tracking" of section 4.3), so layers that touch stay on their own side
// and a feature that crossed during the step is pulled back. Deviations from the paper, for robustness
// (docs/self_collision.md): corrections are bounded per contact and per vertex, crossings are also
// looked for at the time the features became coplanar, contacts the passes cannot satisfy fall back
// to rigid impact zones (Provot 1997; Bridson, Fedkiw & Anderson 2002), and so do triangle pairs the
// corrections made cross (zone_crossings). Optionally
// (consistent_orientation), the consistency correction of section 4.3: contacts are grouped into contact
// regions and a region's majority side is forced on a minority that started the step tangled.
// Triangle pairs that already cross when a step starts (tangled input) get no contacts; their crossing
// contour is shortened each tick instead (intersection contour minimisation, sim/contour_untangle.h).
//
// Call begin_step before the integrator (it records the start-of-step positions, which orient the
// contacts) and resolve after it and after anything else that moves the cloth during the tick
// (colliders). Without begin_step the start positions are taken as x - h v, exact only when nothing
// but an integrator ending with x += h v moved the cloth. Several disconnected pieces in one model
// share one tree. Kinematic vertices are never moved (infinite mass), nor are those marked immovable
// (World marks the vertices touching a collider, so a pile on the floor is pushed up, not into it).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/bvh.h"
#include "sim/cloth_model.h"
#include "sim/cloth_state.h"
#include "sim/contour_untangle.h"
#include "sim/cut_twins.h"
#include "sim/overlap_opening.h"
#include "sim/seam.h"
#include "sim/seam_neighbours.h"

namespace weft {

struct SelfCollisionConfig {
  bool enabled = true;
  float thickness = 0.004f;    // distance kept between non-adjacent features, m; keep it below about a
                               // third of the shortest edge, or flat neighbourhoods look like contacts
  float friction = 0.3f;       // Coulomb coefficient between layers
  int iterations = 8;          // Gauss-Seidel passes over the contacts, for positions and for velocities
  float cone_limit = 1.0472f;  // curvature criterion: half-angle (rad, 60 deg) under which a connected patch
                               // is skipped; below 90 deg as Volino requires, with margin for proximity
  size_t max_contacts_per_vertex = 16;  // cap on contacts (x nvert) so a blown-up state cannot grow memory
  float detection_scale = 1.5f;  // contacts are kept from thickness x scale, so corrections that close a
                                 // gap during the iterations are still seen
  float max_move = 2.f;           // the position passes move a vertex by at most this x thickness per step
  float zone_violation = 0.5f;   // failsafe: a contact still closer than (1 - this) x thickness after the
                                 // passes joins its vertices into a rigid impact zone (fraction of thickness)
  int zone_rounds = 16;          // rounds of growing the zones over contacts they newly violate
  bool local_redetection = true; // after a zone sweep, detect again only around the vertices that moved
                                 // (false: the whole cloth each time)
  bool carry_contacts = false;   // with local_redetection, also from one tick to the next: a pile at rest
                                 // costs a fraction (16k fold 11 against 18 ms), but a cloth kept moving
                                 // costs more, and one variant let the 16k crumple end crossed
                                 // (docs/self_collision.md): off by default
  bool zone_crossings = true;          // failsafe: triangle pairs the corrections made cross (not crossed
                                       // before them) join their vertices into impact zones
  bool consistent_orientation = false; // section 4.3's consistency correction: a contact region's minority
                                       // side is forced to the majority's where the step starts tangled.
                                       // Off by default: it untangles simple cases but is not a reliable
                                       // gain on the demo scenes (docs/self_collision.md)
  float orientation_majority = 2.f;    // the majority must outnumber the minority by this ratio
  // Caps, so that a tangled or blown-up state degrades (counted in the stats) instead of stalling a tick.
  size_t max_pairs_per_triangle = 16;  // candidate triangle pairs (x ntri) per detection; the rest are not looked at
  size_t max_zone_vertices = 512;      // an impact zone stops growing at this many vertices (zones_capped)
  // Tangled input (a mesh loaded with overlapping layers, a state set by a teleport): triangle pairs that
  // already cross at the start of a step are left out of the contacts (no repulsion, no pull-back: each
  // would pull its features through the other layer), until they no longer cross, and their crossing
  // contour is shortened a little each tick (untangle_step). Found by a scan of all pairs after
  // construction and after request_tangle_scan(); then only pairs of triangles found tangled, and pairs
  // beside them (the contour moving on joins them), are tested for crossing each tick.
  bool exclude_tangled = true;
  int tangle_rings = 0;                // the left-out region reaches this many rings of triangles past the crossings
  float untangle_step = 0.25f;         // the left-out pairs' crossing contours are shortened each tick by moving
                                       // their vertices up to this x thickness (sim/contour_untangle.h); 0: off
  // A crossing that forms while the cloth moves (a layer pushed through another faster than the contacts
  // could stop it) is not in a scan made at load or after a jump: the whole cloth is scanned again every
  // this many ticks (0: never) once the cloth has touched itself since the last scan, so such a crossing
  // is drawn apart too instead of held by contacts.
  int rescan_ticks = 240;
  // Layers the rest shape holds closer than the thickness (a fold, a hem, a pleat in the mesh as given) keep
  // their rest gap instead (sim/rest_gap.h). false: the thickness for every contact (as the GPU's stage 5 does).
  bool rest_gaps = true;
};

struct SelfCollisionStats {
  uint64_t candidate_pairs = 0;   // triangle pairs from the BVH given to the feature tests
  uint64_t separated = 0;         // BVH pairs with a separating triangle plane (no feature test)
  uint64_t adjacent_culled = 0;   // neighbour pairs skipped by the curvature criterion (bvh.h)
  uint64_t flat_fans = 0;         // BVH pairs inside one or two neighbouring flat vertex fans (no feature test)
  uint64_t vertex_triangle = 0;   // vertex-triangle contacts
  uint64_t edge_edge = 0;         // edge-edge contacts
  uint64_t crossed = 0;           // contacts whose features changed side during the step (pulled back)
  uint64_t cone_skips = 0;        // subtrees skipped by the curvature criterion
  uint64_t dropped = 0;           // contacts left out because the cap was reached
  int position_passes = 0;        // Gauss-Seidel passes taken (stops early when all are satisfied)
  float max_violation = 0;        // largest remaining (thickness - distance) after the passes, m
  uint64_t zone_vertices = 0;     // vertices moved rigidly by the impact-zone failsafe
  uint64_t zones = 0;             // impact zones formed
  uint64_t new_crossings = 0;     // triangle pairs the corrections made cross, zoned (zone_crossings)
  uint64_t reoriented = 0;        // contacts forced to their region's majority side (section 4.3)
  uint64_t largest_zone = 0;      // vertices in the largest impact zone
  uint64_t zones_capped = 0;      // zone merges refused by max_zone_vertices
  uint64_t pairs_capped = 0;      // detections whose pair search stopped at max_pairs_per_triangle x ntri
  uint64_t intersecting_pairs = 0;  // tangled triangle pairs (crossing at the start of the step) left out
  uint64_t untangled_vertices = 0;  // vertices moved this step to shorten the tangled pairs' crossing contours
  uint64_t detections = 0;        // detections this step: the first, then one after each impact-zone sweep
  uint64_t local_detections = 0;  // of those, made only around the vertices that moved (detect_around_moved)
  uint64_t kept_contacts = 0;     // contacts those kept without testing again (counted in vertex_triangle, edge_edge)
};

// One contact: the relative position r = sum_k weight_k x_k (first feature minus second) must keep
// r . normal >= target (the thickness, or the features' rest gap where the rest shape holds them closer).
struct SelfContact {
  std::array<uint32_t, 4> vertex{};  // the vertex and triangle corners, or the two edges' ends
  std::array<float, 4> weight{};     // +barycentric on the first feature, -barycentric on the second
  glm::vec3 normal{0.f};             // unit, from the second feature toward the first
  float inv_mass_sum = 0;            // sum_k weight_k^2 / m_k (kinematic: 0)
  float pushed = 0;                  // accumulated position correction along the normal this step, m
  float target = 0;                  // distance kept along the normal, m: min(thickness, rest gap) (sim/rest_gap.h)
  uint8_t edge_edge = 0;             // 1: edge-edge, 0: vertex (vertex[0]) - triangle (vertex[1..3])
  uint8_t reoriented = 0;            // 1: its side was forced to its region's majority (untangling)
};

class SelfCollision {
 public:
  SelfCollision(const ClothModel& model, const SelfCollisionConfig& config = {});
  // With the hierarchy's leaf order given (after an edit: the old one carried through it,
  // carry_triangle_order), the hierarchy is split along that order (bvh.h), not rebuilt by medians.
  SelfCollision(const ClothModel& model, const SelfCollisionConfig& config, std::vector<uint32_t> leaf_order);
  // The hierarchy's triangles in leaf order.
  std::vector<uint32_t> leaf_order() const { return bvh_.leaf_order(); }

  // Records the positions at the start of the tick (a copy, no allocation).
  void begin_step(const ClothState& state);
  // Detects and answers self-contacts of state after a step of h seconds. No allocation once the
  // contact and pair buffers have reached their largest size. immovable (nvert, optional): nonzero
  // entries are treated as infinite mass for this step.
  void resolve(const ClothModel& model, ClothState& state, float h, const uint8_t* immovable = nullptr);

  // resolve in parts, for a caller that alternates the position corrections with another constraint
  // (World: the colliders) over the same contacts: begin_resolve detects (false: nothing to do),
  // project corrects positions (passes, then impact zones), set_immovable changes which vertices are
  // held (the contacts keep), answer_velocities ends the step.
  bool begin_resolve(const ClothModel& model, ClothState& state, float h, const uint8_t* immovable = nullptr);
  void project(const ClothModel& model, ClothState& state, float h);
  void set_immovable(const ClothModel& model, const ClothState& state, const uint8_t* immovable);
  void answer_velocities(ClothState& state, float h);

  // Asks for a scan of the whole cloth for triangle pairs that already cross, at the start of the next
  // step (after a teleport or a state set from outside); one is made after construction.
  void request_tangle_scan() { scan_pending_ = true; }
  // Scans positions x (nvert) now: flags the crossing triangle pairs and returns their count. World calls
  // it when self-collision is switched on, so that a tangled mesh is reported at load.
  uint64_t scan_tangles(const ClothModel& model, const glm::vec3* x);
  // Triangle pairs whose interiors overlap in one plane (a fold laid flat on itself, a duplicated layer:
  // engine/mesh_check.h's overlaps, found by the caller at load), which no crossing test sees and whose
  // contacts have no side to push to: they count as tangled (left out of the contacts; tangled_at_scan
  // includes them) and are drawn apart along their normals, untangle_step x thickness a tick, until their
  // centroids are a thickness apart or a vertex could have moved two thicknesses; then the contacts take
  // them, with their sides. Each pair's side is fixed now: a fold's layers (opposite normals) each move
  // against their own normal (front faces together, as a sheet folded over onto its front), same-facing
  // layers by their connected piece's (then triangle's) index, the higher one along its normal. Pairs
  // sharing a vertex are left to the contacts. Positions x (nvert): those at load. Returns the pairs taken;
  // they are taken again by the scans after a reset or jump, while still within half a thickness.
  size_t add_overlapping_pairs(const ClothModel& model, const glm::vec3* x,
                               const std::vector<std::array<uint32_t, 2>>& pairs);
  // The seams' pairs and the features beside them are neighbours from now on: no contacts between them,
  // never counted as crossing (sim/seam_neighbours.h). Call it whenever the seams change; it allocates.
  void set_seams(const ClothModel& model, const SeamSet& seams);
  // The vertex pairs a cut made out of one (sim/cut_twins.h): no contacts between them and the features beside
  // them until they part past the thickness. World::edit gives the new ones with those still live; it allocates.
  void set_cut_twins(const ClothModel& model, const std::vector<std::array<uint32_t, 2>>& twins);
  const CutTwins& cut_twins() const { return cut_twins_; }
  void rearm_cut_twins() {
    cut_twins_.rearm();
    detected_ = false;
  }
  // After an edit: the overlapping pairs old had (add_overlapping_pairs), each old triangle replaced by the new
  // ones that lie in it (triangle_parent: the old triangle of each new one, ntri), with their sides; those still
  // lying on each other are drawn apart again from the next step. It allocates.
  void carry_overlaps(const SelfCollision& old, const std::vector<uint32_t>& triangle_parent);
  size_t overlap_pairs() const { return overlaps_.size(); }
  // The overlapping pairs with their sides (add_overlapping_pairs), for the load's opening (sim/overlap_opening.h).
  const std::vector<OverlapPair>& overlaps() const { return overlaps_; }
  // After the load drew the layers apart at positions x (nvert): only the pairs still within half a thickness
  // are drawn apart tick by tick; the load's count (tangled_at_scan) stays. Returns those.
  size_t rearm_overlaps(const ClothModel& model, const glm::vec3* x) { return arm_overlaps(model, x, 0.5f * config_.thickness); }
  // Overlapping pairs being drawn apart now.
  size_t overlaps_separating() const { return separating_.size(); }
  // Triangle pairs found crossing (and overlapping pairs taken) by the last scan, and how many scans were made.
  uint64_t tangled_at_scan() const { return tangled_at_scan_; }
  // Crossing pairs the periodic scans (rescan_ticks) found, summed over the scans.
  uint64_t tangled_at_rescans() const { return tangled_at_rescans_; }
  uint64_t tangle_scans() const { return tangle_scans_; }

  const SelfCollisionConfig& config() const { return config_; }
  void set_config(const SelfCollisionConfig& config) {
    config_ = config;
    detected_ = false;  // the contacts were found with the old thickness
    fan_pair_cos_ = fan_pair_cos(config.cone_limit);
    contacts_.reserve(config.max_contacts_per_vertex * previous_.size());  // at the new cap, as the constructor does
  }
  const SelfCollisionStats& stats() const { return stats_; }
  const std::vector<SelfContact>& contacts() const { return contacts_; }

 private:
  SelfCollision(const ClothModel& model, const SelfCollisionConfig& config, TriangleBvh&& bvh);
  // refitted: the tree already bounds x and the step's start with the detection margin (skips the refit).
  void detect(const ClothModel& model, const glm::vec3* x, bool first, bool refitted = false);
  void detect_around_moved(const ClothModel& model, const glm::vec3* x, bool first);
  void test_pair(const ClothModel& model, const glm::vec3* x, const TrianglePair& pair, bool first);
  bool in_flat_fans(const TrianglePair& pair, const std::array<uint32_t, 3>& ta, const std::array<uint32_t, 3>& tb);
  // The vertex fans' culling (bvh.h self_pairs) holds while no tangle is being drawn apart.
  bool fans_usable() const { return tangled_count_ == 0; }
  // Whether a pair has a triangle in the tangle or the rings around it.
  bool touches_tangle(const TrianglePair& p) const { return tangled_count_ > 0 && (tangled_[p.a] || tangled_[p.b]); }
  // cos(2 cone_limit): two normals in one cone under the limit are closer than that (in_flat_fans).
  static float fan_pair_cos(float cone_limit) { return std::cos(std::min(2.f * cone_limit, 3.14159265f)); }
  void measure_travel(const glm::vec3* x);
  // The whole-cloth scan: flags the triangle pairs crossing at xp, returns their count (scan_tangles records
  // it as the load's; the periodic scans add it to tangled_at_rescans_).
  uint64_t find_tangles(const ClothModel& model, const glm::vec3* xp);
  void dilate_tangles(const ClothModel& model);
  // Overlapping pairs (add_overlapping_pairs): which are still within `within` of each other at x (all
  // if negative) are drawn apart again; separate_overlaps moves them one tick's step.
  size_t arm_overlaps(const ClothModel& model, const glm::vec3* x, float within);
  void separate_overlaps(const ClothModel& model, glm::vec3* x);
  float overlap_gap(const ClothModel& model, const glm::vec3* x, uint32_t k) const;
  void update_tangles(const ClothModel& model);
  bool note_still_tangled(const ClothModel& model, const TrianglePair& pair);
  void add_vertex_triangle(const glm::vec3* x, uint32_t v, const std::array<uint32_t, 3>& tri);
  void add_edge_edge(const glm::vec3* x, uint32_t i0, uint32_t i1, uint32_t j0, uint32_t j1);
  void push_contact(const std::array<uint32_t, 4>& v, const std::array<float, 4>& w, const glm::vec3& n,
                    bool edge_edge, float target);
  float effective_inv_mass(const std::array<uint32_t, 4>& vert, const std::array<float, 4>& w) const;
  void orient_regions(const glm::vec3* x);
  uint32_t region_root(uint32_t c);
  bool edge_crosses_region(const glm::vec3* x, uint32_t contact) const;
  void position_passes(glm::vec3* x);
  void zone_crossings(const ClothModel& model, ClothState& state, float h);
  void move_zones(const ClothModel& model, ClothState& state, float h);
  void impact_zones(const ClothModel& model, ClothState& state, float h);
  uint32_t zone_root(uint32_t i);
  void start_zones();
  bool join_zone(uint32_t i, int64_t& first);

  SelfCollisionConfig config_;
  TriangleBvh bvh_;
  std::vector<glm::vec3> previous_;      // start-of-step positions (nvert)
  bool have_previous_ = false;           // begin_step was called for this tick
  const uint8_t* kinematic_ = nullptr;   // the state's kinematic flags, during detection
  std::vector<float> inv_mass_;          // 1 / m per vertex, 0 for kinematic vertices (nvert)
  std::vector<TrianglePair> pairs_;      // candidate triangle pairs
  std::vector<SelfContact> contacts_;    // this step's contacts
  std::vector<uint32_t> zone_parent_;    // impact zones: union-find parent per vertex (nvert)
  std::vector<glm::vec3> zone_momentum_; // per zone root: sum m v (nvert)
  std::vector<float> zone_mass_;         // per zone root: sum m (nvert)
  static constexpr int kZoneSweeps = 4;  // zone, detect again around the zones, ... (project)
  bool zones_started_ = false;           // the zone sets were reset during this project()
  bool zones_grew_ = false;              // the last impact_zones call added or merged a zone
  std::vector<uint8_t> zoned_;           // 1 if the vertex is in an impact zone this step (nvert)
  std::vector<glm::vec3> resolve_start_; // positions before the position passes (nvert)
  std::vector<glm::vec3> velocity_start_; // velocities before the velocity passes (nvert)
  std::vector<float> travel_;            // |x - previous| per vertex at the last detect, m (nvert)
  std::vector<uint32_t> zone_size_;      // per zone root: vertices in the zone (nvert)
  std::vector<uint8_t> zone_shifted_;    // zone_crossings: 1 if the corrections moved the vertex, then if the
                                         // last move_zones did (nvert)
  // detect_around_moved: vertices to detect again (nvert), triangles with such a corner (ntri), vertices
  // whose tests depended on where the step started (nvert, read at the next tick's first detection), the
  // position of each vertex when its contacts were found (nvert); a full detection instead once more than
  // 1 / kFullRedetection of the triangles are flagged within a tick, 3 / kFullRedetection from one tick to
  // the next. detected_: contacts_ and pairs_ hold the last tick's detection, complete.
  std::vector<uint8_t> moved_, moved_triangle_, recheck_;
  std::vector<glm::vec3> detected_at_;
  std::vector<glm::vec3> detected_normal_;  // unit normal per triangle when its pairs were looked at (ntri)
  static constexpr float kTurnLimit = 0.1745f;  // 10 degrees: a triangle turned more is looked at again
  bool detected_ = false;
  bool only_moved_ = false;              // detect_around_moved's tests: only contacts with a moved vertex
  // Layers folded at rest (sim/rest_gap.h): the rest positions during detection (nvert), and the distance the
  // contacts of the pair test_pair is testing keep: min(thickness, the pair's rest gap).
  const glm::vec3* rest_ = nullptr;
  float pair_target_ = 0.f;
  static constexpr size_t kFullRedetection = 4;
  static constexpr float kRecheckViolation = 0.1f;  // a contact left this violated (x thickness) is found again
  // Tangles: triangles in a pair crossing at the start of a step (ntri), and those confirmed this tick.
  std::vector<uint8_t> tangled_, still_tangled_;
  std::vector<uint8_t> crossing_now_;    // update_tangles: the triangles crossing at the step's start (ntri)
  std::vector<uint8_t> tangle_vertex_;   // scratch for dilate_tangles (nvert)
  std::vector<TrianglePair> tangled_pairs_;  // tangled pairs crossing at the last first detection (or scan)
  UntangleScratch untangle_scratch_;     // contour_untangle's per-vertex scratch (nvert)
  size_t tangled_count_ = 0;             // nonzero entries of tangled_
  // Overlapping pairs (add_overlapping_pairs), each with its side: a moves along side x its normal, b
  // against it. separating_: those being drawn apart (indices into overlaps_), until each vertex could have
  // moved kOverlapTravel thicknesses; overlap_held_ (ntri): their triangles, kept in tangled_ while they are.
  std::vector<OverlapPair> overlaps_;
  std::vector<uint32_t> separating_;
  std::vector<uint8_t> overlap_held_;
  int overlap_ticks_ = 0;
  static constexpr float kOverlapTravel = 2.f;
  float fan_pair_cos_ = 1.f;             // fan_pair_cos(config_.cone_limit)
  bool scan_pending_ = true;
  uint64_t tangled_at_scan_ = 0, tangle_scans_ = 0, tangled_at_rescans_ = 0;
  int ticks_since_scan_ = 0;
  bool contacts_since_scan_ = false;  // a contact was in force in a tick since the last scan
  // Contact regions (orient_regions): vertex one-ring (CSR), vertex-triangle contacts by their vertex
  // (CSR, counting sort), union-find over contacts, and the side forced on each reoriented vertex.
  std::vector<uint32_t> ring_start_, ring_;
  std::vector<uint32_t> by_vertex_start_, by_vertex_;
  std::vector<uint32_t> region_parent_;  // per contact
  std::vector<int32_t> region_vote_;     // per region root: interior contacts above minus below
  std::vector<int8_t> region_side_;      // per contact: +1/-1 side along the triangle's winding, 0: no vote
  std::vector<glm::vec3> forced_dir_;    // per vertex: the majority's side for a reoriented vertex (nvert)
  std::vector<int32_t> forced_tri_;      // per vertex: its reoriented contact's first contact index, -1 (nvert)
  std::vector<uint32_t> piece_;          // connected piece per vertex (nvert): rest gaps only within one (rest_gap.h)
  SeamNeighbours seam_neighbours_;       // features a seam joins (set_seams)
  CutTwins cut_twins_;                   // features a cut parted, until they part past the thickness
  bool neighbours(uint32_t ta, uint32_t tb, const std::vector<std::array<uint32_t, 3>>& triangle) const {
    return seam_neighbours_.joined(ta, tb, triangle) || cut_twins_.joined(ta, tb, triangle);
  }
  SelfCollisionStats stats_;
};

}  // namespace weft
