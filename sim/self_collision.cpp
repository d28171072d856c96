#include "sim/self_collision.h"

#include <algorithm>
#include <cmath>

#include "sim/collision_geometry.h"
#include "sim/rest_gap.h"

namespace weft {
namespace {

bool has_vertex(const std::array<uint32_t, 3>& t, uint32_t v) { return t[0] == v || t[1] == v || t[2] == v; }
bool shares_vertex(const std::array<uint32_t, 3>& a, const std::array<uint32_t, 3>& b) {
  return has_vertex(b, a[0]) || has_vertex(b, a[1]) || has_vertex(b, a[2]);
}

// Whether the corners of tri all lie farther than limit on one side of the plane through origin with
// unit normal n (a zero normal: never).
bool beyond_plane(const glm::vec3* x, const std::array<uint32_t, 3>& tri, const glm::vec3& origin, const glm::vec3& n,
                  float limit) {
  const float d0 = glm::dot(x[tri[0]] - origin, n), d1 = glm::dot(x[tri[1]] - origin, n),
              d2 = glm::dot(x[tri[2]] - origin, n);
  return (d0 > limit && d1 > limit && d2 > limit) || (d0 < -limit && d1 < -limit && d2 < -limit);
}

// Whether the boxes of two point sets are farther apart than gap along some axis: then so are every
// two points of them, and no feature test within that gap can accept them (a cheap reject before the
// closest-point computations, which most candidate features fail).
bool boxes_apart(const glm::vec3& lo_a, const glm::vec3& hi_a, const glm::vec3& lo_b, const glm::vec3& hi_b,
                 float gap) {
  return lo_b.x - hi_a.x >= gap || lo_a.x - hi_b.x >= gap || lo_b.y - hi_a.y >= gap || lo_a.y - hi_b.y >= gap ||
         lo_b.z - hi_a.z >= gap || lo_a.z - hi_b.z >= gap;
}

// Whether triangle (a0, a1, a2) lies wholly on one side of the plane of (b0, b1, b2), by more than a
// rounding margin: then they cannot cross, and the exact (double precision) predicates are not needed.
// The layers of a pile lie a thickness apart with overlapping boxes, and most pairs end here.
bool clear_of_plane(const glm::vec3& a0, const glm::vec3& a1, const glm::vec3& a2, const glm::vec3& b0,
                    const glm::vec3& b1, const glm::vec3& b2) {
  const glm::vec3 n = glm::cross(b1 - b0, b2 - b0);
  const float d0 = glm::dot(a0 - b0, n), d1 = glm::dot(a1 - b0, n), d2 = glm::dot(a2 - b0, n);
  const float scale = glm::length(b1 - b0) + glm::length(b2 - b0) + glm::length(a0 - b0);
  const float margin = 1e-4f * glm::length(n) * scale;  // far above float rounding of these products
  return (d0 > margin && d1 > margin && d2 > margin) || (d0 < -margin && d1 < -margin && d2 < -margin);
}

// Whether the pair's triangles cross at positions x (exact predicates); never for neighbours. Most
// pairs lie wholly on one side of the other's plane and end at the cheap test.
bool pair_crosses(const ClothModel& model, const TrianglePair& p, const glm::vec3* x) {
  const auto& ta = model.triangle[p.a];
  const auto& tb = model.triangle[p.b];
  if (shares_vertex(ta, tb)) return false;
  const glm::vec3 &a0 = x[ta[0]], &a1 = x[ta[1]], &a2 = x[ta[2]], &b0 = x[tb[0]], &b1 = x[tb[1]], &b2 = x[tb[2]];
  if (clear_of_plane(a0, a1, a2, b0, b1, b2) || clear_of_plane(b0, b1, b2, a0, a1, a2)) return false;
  return triangles_intersect(a0, a1, a2, b0, b1, b2);
}

// Position of vertex i at time t of the step (0: start, 1: now), moving on a straight line.
glm::vec3 at(const glm::vec3* x, const glm::vec3* xp, uint32_t i, float t) { return xp[i] + t * (x[i] - xp[i]); }

// Signed volume of (a, b, c, d): zero when the four points are coplanar.
float volume(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, const glm::vec3& d) {
  return glm::dot(b - a, glm::cross(c - a, d - a));
}

// First time in (0, 1] at which four vertices moving linearly over the step become coplanar (the cubic
// volume changes sign), from kCoplanarSamples samples and a linear root in the bracketing interval; -1 if
// the sign never changes. The continuous check behind the discrete start/end side tests, for features
// that crossed and moved on within one step.
constexpr int kCoplanarSamples = 8;
float coplanar_time(const glm::vec3* x, const glm::vec3* xp, const std::array<uint32_t, 4>& q) {
  auto f = [&](float t) { return volume(at(x, xp, q[0], t), at(x, xp, q[1], t), at(x, xp, q[2], t), at(x, xp, q[3], t)); };
  float t0 = 0.f, f0 = f(0.f);
  for (int k = 1; k <= kCoplanarSamples; ++k) {
    const float t1 = float(k) / float(kCoplanarSamples), f1 = f(t1);
    if ((f0 < 0.f && f1 >= 0.f) || (f0 > 0.f && f1 <= 0.f)) return t0 + (t1 - t0) * f0 / (f0 - f1);
    t0 = t1;
    f0 = f1;
  }
  return -1.f;
}

}  // namespace

SelfCollision::SelfCollision(const ClothModel& model, const SelfCollisionConfig& config)
    : SelfCollision(model, config, TriangleBvh(model)) {}

SelfCollision::SelfCollision(const ClothModel& model, const SelfCollisionConfig& config, std::vector<uint32_t> leaf_order)
    : SelfCollision(model, config, TriangleBvh(model, std::move(leaf_order))) {}

SelfCollision::SelfCollision(const ClothModel& model, const SelfCollisionConfig& config, TriangleBvh&& bvh)
    : config_(config), bvh_(std::move(bvh)), previous_(model.vertex_count()), inv_mass_(model.vertex_count()),
      zone_parent_(model.vertex_count()), zone_momentum_(model.vertex_count()), zone_mass_(model.vertex_count()),
      zoned_(model.vertex_count()), resolve_start_(model.vertex_count()), velocity_start_(model.vertex_count()),
      travel_(model.vertex_count()),
      zone_size_(model.vertex_count(), 1), zone_shifted_(model.vertex_count(), 0), moved_(model.vertex_count(), 0),
      moved_triangle_(model.triangle_count(), 0), recheck_(model.vertex_count(), 0), detected_at_(model.vertex_count()),
      detected_normal_(model.triangle_count()), tangled_(model.triangle_count(), 0),
      still_tangled_(model.triangle_count(), 0), crossing_now_(model.triangle_count(), 0),
      tangle_vertex_(model.vertex_count(), 0), overlap_held_(model.triangle_count(), 0),
      ring_start_(model.vertex_count() + 1, 0),
      by_vertex_start_(model.vertex_count() + 1, 0), forced_dir_(model.vertex_count()),
      forced_tri_(model.vertex_count(), -1), piece_(connected_pieces(model.vertex_count(), model.triangle)) {
  fan_pair_cos_ = fan_pair_cos(config_.cone_limit);
  pairs_.reserve(config_.max_pairs_per_triangle * model.triangle_count());
  // Both at their caps, as the pairs: no allocation in a tick, however the contacts grow (reserved at 2 per
  // vertex, a build without the SIMD paths took its trajectory's new high a tick later and allocated in
  // a tick). The pages of the unused part are never touched, so they cost address space, not memory.
  contacts_.reserve(config_.max_contacts_per_vertex * model.vertex_count());
  untangle_scratch_.resize(model.vertex_count());
  tangled_pairs_.reserve(model.triangle_count());
  // Vertex one-rings from the unique edges (CSR), for walking the contact regions.
  const auto& edges = model.topology.edges;
  for (const auto& e : edges) {
    ++ring_start_[e[0] + 1];
    ++ring_start_[e[1] + 1];
  }
  for (size_t i = 0; i < model.vertex_count(); ++i) ring_start_[i + 1] += ring_start_[i];
  ring_.resize(ring_start_.back());
  std::vector<uint32_t> fill(ring_start_.begin(), ring_start_.end() - 1);
  for (const auto& e : edges) {
    ring_[fill[e[0]]++] = e[1];
    ring_[fill[e[1]]++] = e[0];
  }
}

// Volino's curvature criterion (bvh.h) at the scale of a vertex's fan: an edge-connected patch whose
// normals stay within a cone of half-angle below cone_limit is a height field over its axis and cannot
// touch itself. Two triangles with a corner in common both lie in that corner's fan; two with corners
// joined by an edge lie in the union of those corners' fans, edge-connected through the triangles on the
// edge. The BVH culls flat subtrees and flat edge neighbours; along the folds and wrinkles of a draped
// cloth its subtrees' cones are wide, and the corner and next-but-one neighbours there were 1,600 pairs
// a tick of the table demo, all taken to the feature tests (0.1-0.25 ms) for no contact.
bool SelfCollision::in_flat_fans(const TrianglePair& p, const std::array<uint32_t, 3>& ta,
                                 const std::array<uint32_t, 3>& tb) {
  const float limit = config_.cone_limit;
  if (!(limit > 0.f)) return false;
  // Two normals in one cone of half-angle limit are less than 2 limit apart: layers folded face to face
  // (most pairs of a fold) end here, before the fans are looked at.
  const auto& normal = bvh_.triangle_normals();
  if (!(glm::dot(normal[p.a], normal[p.b]) > fan_pair_cos_)) return false;
  for (uint32_t u : ta)
    if (has_vertex(tb, u)) return bvh_.fan_cone(u).half_angle < limit;
  for (uint32_t u : ta) {
    const FanCone& cu = bvh_.fan_cone(u);
    if (cu.half_angle >= limit) continue;
    for (uint32_t k = ring_start_[u]; k < ring_start_[u + 1]; ++k) {
      const uint32_t w = ring_[k];
      if (!has_vertex(tb, w)) continue;
      const FanCone& cw = bvh_.fan_cone(w);
      if (cw.half_angle < limit && merged_half_angle(cu.axis, cu.half_angle, cw.axis, cw.half_angle) < limit)
        return true;
    }
  }
  return false;
}

void SelfCollision::begin_step(const ClothState& state) {
  std::copy(state.position.begin(), state.position.end(), previous_.begin());
  have_previous_ = true;
  // A cut's twins parted past the thickness are two borders from now on (sim/cut_twins.h).
  if (cut_twins_.expire(previous_.data(), config_.thickness * config_.detection_scale) > 0) detected_ = false;
}

void SelfCollision::resolve(const ClothModel& model, ClothState& state, float h, const uint8_t* immovable) {
  if (!begin_resolve(model, state, h, immovable)) return;
  project(model, state, h);
  answer_velocities(state, h);
}

bool SelfCollision::begin_resolve(const ClothModel& model, ClothState& state, float h, const uint8_t* immovable) {
  stats_ = {};
  if (!config_.enabled || model.triangle_count() == 0) {
    contacts_.clear();
    have_previous_ = false;
    detected_ = false;
    return false;
  }
  const size_t n = model.vertex_count();
  glm::vec3* x = state.position.data();
  const glm::vec3* v = state.velocity.data();
  for (size_t i = 0; i < n; ++i) {
    if (!have_previous_) previous_[i] = x[i] - h * v[i];
    inv_mass_[i] = (state.kinematic[i] || (immovable && immovable[i])) ? 0.f : model.inv_mass[i];
  }
  have_previous_ = false;
  kinematic_ = state.kinematic.data();
  // Layers cross only where they came close: a cloth that had no self-contact since the last scan is not
  // scanned again (a scan every second put 10 more slow ticks among the table demo's slowest 24).
  const bool rescan_due =
      config_.rescan_ticks > 0 && ++ticks_since_scan_ >= config_.rescan_ticks && contacts_since_scan_;
  if (scan_pending_) {
    scan_tangles(model, previous_.data());  // overwrites the candidate pairs
    detected_ = false;
  } else if (rescan_due) {
    tangled_at_rescans_ += find_tangles(model, previous_.data());  // tangled_at_scan_ keeps the load's count
    detected_ = false;
  }
  if (config_.untangle_step > 0.f && !tangled_pairs_.empty()) {
    // Before the detection, and at the start-of-step positions too: the contacts take their sides from
    // there, and would otherwise pull a vertex the move took across a neighbouring layer back.
    const UntangleStats untangled =
        contour_untangle(model, tangled_pairs_, x, inv_mass_.data(), config_.untangle_step * config_.thickness,
                         untangle_scratch_, previous_.data());
    stats_.untangled_vertices = untangled.vertices;
  }
  if (config_.untangle_step > 0.f && !separating_.empty()) separate_overlaps(model, x);
  tangled_pairs_.clear();  // the first detection lists those still crossing
  // The last tick's contacts carry over where nothing moved (detect_around_moved); not while the regions
  // are oriented (their votes need every contact of the tick).
  const bool carry =
      detected_ && config_.local_redetection && config_.carry_contacts && !config_.consistent_orientation;
  detected_ = true;  // until a capped pair search leaves the pairs incomplete
  if (carry) {
    detect_around_moved(model, x, true);
  } else {
    contacts_.clear();
    std::fill(recheck_.begin(), recheck_.end(), uint8_t(0));
    detect(model, x, true);
  }
  std::copy(x, x + n, resolve_start_.begin());
  return true;
}

void SelfCollision::set_immovable(const ClothModel& model, const ClothState& state, const uint8_t* immovable) {
  for (size_t i = 0; i < inv_mass_.size(); ++i)
    inv_mass_[i] = (state.kinematic[i] || (immovable && immovable[i])) ? 0.f : model.inv_mass[i];
  for (SelfContact& c : contacts_) c.inv_mass_sum = effective_inv_mass(c.vertex, c.weight);
}

float SelfCollision::effective_inv_mass(const std::array<uint32_t, 4>& vert, const std::array<float, 4>& w) const {
  float sum = 0.f, mobility = 0.f;  // sum w_k^2 / m_k and the largest |w_k| / m_k
  for (int k = 0; k < 4; ++k) {
    sum += w[k] * w[k] * inv_mass_[vert[k]];
    mobility = std::max(mobility, std::abs(w[k]) * inv_mass_[vert[k]]);
  }
  // A correction moves vertex k by gap w_k / (m_k sum w^2 / m). When the only free vertices carry a
  // small weight (an edge point next to a held or floor-bound end), that is gap / w_k: a vertex thrown
  // by ten times the gap, which then crossed the layers around it (the approximate-solver hand fold
  // threw vertices 11 cm in one pass). Bounding the denominator moves each vertex by at most twice the
  // gap; the contact then closes over the passes or through the neighbouring vertex's own contacts.
  // The impulse keeps the weights, so momentum is still conserved. Zero when nothing can move.
  return std::max(sum, 0.5f * mobility);
}

void SelfCollision::project(const ClothModel& model, ClothState& state, float h) {
  glm::vec3* x = state.position.data();
  zones_started_ = false;
  for (int sweep = 0; sweep < kZoneSweeps; ++sweep) {
    position_passes(x);
    zones_grew_ = false;
    impact_zones(model, state, h);
    // Done when the zones did not grow: the contacts found around them are satisfied or inside one.
    if (!zones_grew_ || sweep + 1 == kZoneSweeps) break;
    // The zones moved their vertices back along their own motion, where no contact was looked for:
    // detect again, with the zones held (the passes move only the rest; what they cannot satisfy
    // joins a zone), until no zone grows.
    for (size_t i = 0; i < zoned_.size(); ++i)
      if (zoned_[i]) inv_mass_[i] = 0.f;
    detect_around_moved(model, x, false);
  }
  zone_crossings(model, state, h);
}

// Failsafe on the corrections themselves: the passes and zones move vertices by checking only the
// contact set, so a correction can carry a vertex or an edge through a triangle that has no contact with
// it (measured: the approximate-solver hand fold, 0 -> 4 edge-triangle crossings inside project at
// t = 0.875 s; the table.json shake's tangles). Every candidate triangle pair that crosses now but did
// not at the start of the corrections joins its vertices into an impact zone, which moves them rigidly
// from the start of the step (where the pair did not cross if the step started clean), until no new
// crossing is found. Exact predicates (sim/collision_geometry.h); pairs sharing a vertex are skipped.
void SelfCollision::zone_crossings(const ClothModel& model, ClothState& state, float h) {
  // No contact: nothing was moved since resolve_start_ (World stops alternating with the colliders then).
  if (!config_.zone_crossings || contacts_.empty()) return;
  glm::vec3* x = state.position.data();
  const glm::vec3* x0 = resolve_start_.data();
  const uint8_t* kinematic = state.kinematic.data();
  // Which vertices the corrections moved, then which triangles have such a corner (a byte per triangle:
  // the pair loop below reads two per pair).
  for (size_t i = 0; i < zone_shifted_.size(); ++i) zone_shifted_[i] = x[i] != x0[i];
  const uint8_t* shifted = zone_shifted_.data();
  uint8_t* touched = moved_triangle_.data();  // free outside detect_around_moved
  for (int round = 0; round < config_.zone_rounds; ++round) {
    // After the first round only the pairs the last zone move touched can have changed: the others were
    // looked at in that round, and what they joined stays joined.
    for (size_t t = 0; t < moved_triangle_.size(); ++t) {
      const auto& tri = model.triangle[t];
      touched[t] = shifted[tri[0]] | shifted[tri[1]] | shifted[tri[2]];
    }
    bool grew = false;
    for (const TrianglePair& p : pairs_) {
      if (!(touched[p.a] | touched[p.b])) continue;
      const auto& ta = model.triangle[p.a];
      const auto& tb = model.triangle[p.b];
      if (shares_vertex(ta, tb) || neighbours(p.a, p.b, model.triangle)) continue;
      // Tight bounds first: the candidate pairs come from bounds swept over the step and padded.
      const glm::vec3 lo_a = glm::min(glm::min(x[ta[0]], x[ta[1]]), x[ta[2]]), hi_a = glm::max(glm::max(x[ta[0]], x[ta[1]]), x[ta[2]]);
      const glm::vec3 lo_b = glm::min(glm::min(x[tb[0]], x[tb[1]]), x[tb[2]]), hi_b = glm::max(glm::max(x[tb[0]], x[tb[1]]), x[tb[2]]);
      if (glm::any(glm::lessThan(hi_a, lo_b)) || glm::any(glm::lessThan(hi_b, lo_a))) continue;
      if (clear_of_plane(x[ta[0]], x[ta[1]], x[ta[2]], x[tb[0]], x[tb[1]], x[tb[2]])) continue;
      if (!triangles_intersect(x[ta[0]], x[ta[1]], x[ta[2]], x[tb[0]], x[tb[1]], x[tb[2]])) continue;
      if (triangles_intersect(x0[ta[0]], x0[ta[1]], x0[ta[2]], x0[tb[0]], x0[tb[1]], x0[tb[2]])) {
        // Crossed before the corrections too: the step's motion took it through, and its contacts could
        // not pull it back (bounded moves, held vertices). Left crossed, the next step's contacts would
        // take their sides from the crossed state and hold it (the 16k crumple's split-solver run: 3
        // such pairs a tick, 150 crossings at the end). A zone moves its vertices rigidly from the start
        // of the step, where the pair did not cross; a pair crossing there is a tangle, left to the
        // untangling.
        if (touches_tangle(p)) continue;
        if (pair_crosses(model, p, previous_.data())) continue;
      }
      start_zones();
      int64_t first = -1;
      for (int k = 0; k < 6; ++k) {
        const uint32_t i = k < 3 ? ta[k] : tb[k - 3];
        if (!kinematic[i] && join_zone(i, first)) grew = true;
      }
      ++stats_.new_crossings;
    }
    if (!grew) break;
    move_zones(model, state, h);
  }
}

void SelfCollision::position_passes(glm::vec3* x) {
  // Positions: project every violated contact, mass-weighted so that sum m dx = 0 (section 3.5).
  const float thickness = config_.thickness;
  const float* im = inv_mass_.data();
  const float max_move = config_.max_move * thickness;
  for (int pass = 0; pass < config_.iterations; ++pass) {
    float worst = 0.f;
    for (SelfContact& c : contacts_) {
      if (!(c.inv_mass_sum > 0.f)) continue;  // every vertex held: nothing can move
      glm::vec3 r(0.f);
      for (int k = 0; k < 4; ++k) r += c.weight[k] * x[c.vertex[k]];
      const float gap = glm::dot(r, c.normal) - c.target;
      if (gap >= 0.f) continue;
      worst = std::max(worst, -gap);
      const float lambda = -gap / c.inv_mass_sum;
      for (int k = 0; k < 4; ++k) {
        const uint32_t i = c.vertex[k];
        if (im[i] == 0.f) continue;  // held (kinematic, on a collider, in an impact zone): not moved
        x[i] += (lambda * c.weight[k] * im[i]) * c.normal;
        // Bounded: conflicting contacts (a vertex in a crumple, pushed by contacts on every side) make
        // the passes drift a vertex by many thicknesses (the approximate-solver hand fold threw vertices
        // 9 cm in one step). What the bound leaves violated goes to the impact zones.
        const glm::vec3 moved = x[i] - resolve_start_[i];
        const float moved2 = glm::dot(moved, moved);
        if (moved2 > max_move * max_move) x[i] = resolve_start_[i] + (max_move / std::sqrt(moved2)) * moved;
      }
      c.pushed -= gap;
    }
    stats_.position_passes = std::max(stats_.position_passes, pass + 1);
    if (worst < 1e-3f * thickness) break;
  }
}

void SelfCollision::answer_velocities(ClothState& state, float h) {
  contacts_since_scan_ = contacts_since_scan_ || !contacts_.empty();
  glm::vec3* x = state.position.data();
  glm::vec3* v = state.velocity.data();
  const float thickness = config_.thickness;
  const float* im = inv_mass_.data();
  // Velocities: perfectly inelastic along the normal, Coulomb friction bounded by mu times the normal
  // impulse of the same contact, both momentum-conserving (section 3.5).
  const float mu = config_.friction;
  const int velocity_passes = 1 + config_.iterations / 4;
  float worst = 0.f;
  if (!contacts_.empty()) std::copy(v, v + velocity_start_.size(), velocity_start_.begin());
  for (int pass = 0; pass < velocity_passes; ++pass) {
    for (SelfContact& c : contacts_) {
      if (pass == 0) {
        // The positions no longer change: the violation left (a statistic) is measured in the first pass.
        glm::vec3 r(0.f);
        for (int k = 0; k < 4; ++k) r += c.weight[k] * x[c.vertex[k]];
        const float violation = c.target - glm::dot(r, c.normal);
        worst = std::max(worst, violation);
        // Left violated (held, capped, zoned): found again next tick rather than carried over, so that it
        // is oriented from where the next step starts, as a full detection would.
        if (violation > kRecheckViolation * thickness)
          for (int k = 0; k < 4; ++k) recheck_[c.vertex[k]] = 1;
      }
      if (!(c.inv_mass_sum > 0.f)) continue;
      glm::vec3 vr(0.f);
      for (int k = 0; k < 4; ++k) vr += c.weight[k] * v[c.vertex[k]];
      const float vn = glm::dot(vr, c.normal);
      const float approach = std::max(-vn, 0.f);
      glm::vec3 dv_rel = approach * c.normal;
      if (pass == 0 && mu > 0.f && (approach > 0.f || c.pushed > 0.f)) {
        // The normal impulse includes the position correction, a velocity pushed / h applied over
        // the step; the larger of the two bounds the friction (no double counting of a resting
        // contact, where both are g h).
        const glm::vec3 vt = vr - vn * c.normal;
        const float vt_len = glm::length(vt);
        const float jn = std::max(approach, c.pushed / h);
        if (vt_len > 0.f) dv_rel -= std::min(vt_len, mu * jn) / vt_len * vt;
      }
      if (dv_rel == glm::vec3(0.f)) continue;
      // Changing the relative velocity by dv_rel: v_k += w_k / m_k dv_rel / sum(w^2 / m), scaled down where
      // it would leave a vertex faster than the fastest of the four was before the passes (the passes spread
      // the impulses: their order is no bound). An inelastic collision of two bodies never does, weighted
      // points do: a layer landing on one whose end already lay on the floor (held) pushed that layer's free
      // vertex, at weight 0.77, down from 3.9 to 5.7 m/s; vertices of small weight under held partners took
      // dv_rel / weight (the folded disc: 8-15 m/s). Any fraction of an inelastic impulse takes energy out.
      glm::vec3 impulse = dv_rel / c.inv_mass_sum;
      float top2 = 0.f;
      for (int k = 0; k < 4; ++k) {
        const glm::vec3 u = velocity_start_[c.vertex[k]];
        top2 = std::max(top2, glm::dot(u, u));
      }
      float scale = 1.f;
      for (int k = 0; k < 4; ++k) {
        const glm::vec3 dv = (c.weight[k] * im[c.vertex[k]]) * impulse, vk = v[c.vertex[k]];
        const float a = glm::dot(dv, dv), b = 2.f * glm::dot(vk, dv), cc = glm::dot(vk, vk) - top2;
        if (!(a > 0.f) || a + b + cc <= 0.f) continue;  // the whole impulse keeps it under the fastest
        if (cc >= 0.f) {  // already past it (an earlier contact of the passes): no faster
          if (b > 0.f) scale = 0.f;
          else scale = std::min(scale, -b / a);
          continue;
        }
        scale = std::min(scale, (-b + std::sqrt(b * b - 4.f * a * cc)) / (2.f * a));
      }
      impulse *= std::max(0.f, scale);
      for (int k = 0; k < 4; ++k) v[c.vertex[k]] += (c.weight[k] * im[c.vertex[k]]) * impulse;
    }
  }
  stats_.max_violation = std::max(worst, 0.f);
}

// Every pair of triangles that cross at the start-of-step positions, with no vertex in common (the
// global intersection analysis of Baraff, Witkin & Kass 2003 reduced to finding the crossing pairs):
// they are flagged, so that detect leaves them out instead of pushing each through the other layer.
uint64_t SelfCollision::scan_tangles(const ClothModel& model, const glm::vec3* xp) {
  tangled_at_scan_ = find_tangles(model, xp);
  // After a reset or a jump: the overlapping pairs lying flat on each other again are drawn apart again.
  if (!overlaps_.empty()) tangled_at_scan_ += arm_overlaps(model, xp, 0.5f * config_.thickness);
  return tangled_at_scan_;
}

size_t SelfCollision::add_overlapping_pairs(const ClothModel& model, const glm::vec3* x,
                                            const std::vector<std::array<uint32_t, 2>>& pairs) {
  const size_t ntri = model.triangle_count();
  // Connected pieces (union-find over the vertices, rooted at their smallest vertex), to order same-facing
  // layers: a duplicated layer, listed after the original, goes up.
  std::vector<uint32_t> piece(model.vertex_count());
  for (uint32_t v = 0; v < piece.size(); ++v) piece[v] = v;
  auto root = [&](uint32_t v) {
    while (piece[v] != v) v = piece[v] = piece[piece[v]];
    return v;
  };
  for (const auto& t : model.triangle)
    for (int k = 1; k < 3; ++k) {
      const uint32_t r0 = root(t[0]), rk = root(t[k]);
      piece[std::max(r0, rk)] = std::min(r0, rk);
    }
  for (const auto& [a, b] : pairs) {
    if (a >= ntri || b >= ntri || a == b) continue;
    const auto& ta = model.triangle[a];
    const auto& tb = model.triangle[b];
    if (shares_vertex(ta, tb)) continue;
    const glm::vec3 na = glm::cross(x[ta[1]] - x[ta[0]], x[ta[2]] - x[ta[0]]);
    const glm::vec3 nb = glm::cross(x[tb[1]] - x[tb[0]], x[tb[2]] - x[tb[0]]);
    // A fold (opposite normals): each layer against its own normal, front faces together, as folding a
    // sheet's front onto itself leaves them (make_folded_over); every pair of the fold agrees. Each layer
    // along its own normal instead turned the crease inside out: crossings at the crease for 9 ticks.
    bool up = false;
    if (glm::dot(na, nb) > 0.f) {
      const uint32_t pa = root(ta[0]), pb = root(tb[0]);
      up = pa != pb ? pa > pb : a > b;
    }
    overlaps_.push_back({{a, b}, up ? 1.f : -1.f});
  }
  separating_.reserve(overlaps_.size());
  const size_t taken = arm_overlaps(model, x, -1.f);
  tangled_at_scan_ += taken;
  return taken;
}

float SelfCollision::overlap_gap(const ClothModel& model, const glm::vec3* x, uint32_t k) const {
  return weft::overlap_gap(model, x, overlaps_[k]);
}

size_t SelfCollision::arm_overlaps(const ClothModel& model, const glm::vec3* x, float within) {
  separating_.clear();
  std::fill(overlap_held_.begin(), overlap_held_.end(), uint8_t(0));
  for (uint32_t k = 0; k < overlaps_.size(); ++k) {
    if (within >= 0.f && !(std::abs(overlap_gap(model, x, k)) < within)) continue;
    separating_.push_back(k);
    overlap_held_[overlaps_[k].pair.a] = overlap_held_[overlaps_[k].pair.b] = 1;
  }
  overlap_ticks_ = 0;
  if (config_.exclude_tangled) {
    for (size_t t = 0; t < tangled_.size(); ++t) tangled_[t] |= overlap_held_[t];
    tangled_count_ = size_t(std::count(tangled_.begin(), tangled_.end(), uint8_t(1)));
  }
  return separating_.size();
}

// One tick of drawing the overlapping pairs apart: each pair's relative motion (a's centroid from b's, along
// a's side) is shared among its six vertices like a contact correction (held vertices stay, the other layer
// takes it all), and each vertex moves along its summed share by step x its length, at most step, as
// contour_untangle moves crossing pairs, at the start-of-step positions too (no velocity added). Pairs a
// thickness apart are done.
void SelfCollision::separate_overlaps(const ClothModel& model, glm::vec3* x) {
  std::fill(overlap_held_.begin(), overlap_held_.end(), uint8_t(0));
  size_t kept = 0;
  // A free pair is a thickness apart within 1 / untangle_step ticks; one held back (by a crease joining its
  // layers, a pin) is pushed for at most twice that, so no vertex is moved by more than two thicknesses
  // against the forces holding it (60 ticks of pushes flung a flat-folded disc's crease at 4 m/s).
  if (++overlap_ticks_ <= int(std::ceil(kOverlapTravel / config_.untangle_step)))
    for (uint32_t k : separating_) {
      if (overlap_gap(model, x, k) >= config_.thickness) continue;
      separating_[kept++] = k;
      overlap_held_[overlaps_[k].pair.a] = overlap_held_[overlaps_[k].pair.b] = 1;
    }
  separating_.resize(kept);
  stats_.intersecting_pairs += kept;
  UntangleScratch& sc = untangle_scratch_;
  sc.list.clear();
  for (uint32_t k : separating_) {
    const OverlapPair& o = overlaps_[k];
    const auto& ta = model.triangle[o.pair.a];
    const auto& tb = model.triangle[o.pair.b];
    const glm::vec3 n = glm::cross(x[ta[1]] - x[ta[0]], x[ta[2]] - x[ta[0]]);
    const float len = glm::length(n);
    if (!(len > 0.f)) continue;
    const glm::vec3 dir = (o.side / len) * n;
    const uint32_t vert[6] = {ta[0], ta[1], ta[2], tb[0], tb[1], tb[2]};
    float sum = 0.f;
    for (uint32_t v : vert) sum += inv_mass_[v] / 9.f;
    if (!(sum > 0.f)) continue;
    for (int j = 0; j < 6; ++j) {
      const uint32_t v = vert[j];
      if (!(inv_mass_[v] > 0.f)) continue;
      if (!sc.touched[v]) {
        sc.touched[v] = 1;
        sc.push[v] = glm::vec3(0.f);
        sc.list.push_back(v);
      }
      sc.push[v] += ((j < 3 ? 1.f : -1.f) * inv_mass_[v] / (3.f * sum)) * dir;
    }
  }
  const float step = config_.untangle_step * config_.thickness;
  for (uint32_t v : sc.list) {
    const glm::vec3 push = sc.push[v];
    const float length = glm::length(push);
    sc.touched[v] = 0;
    if (!(length > 1e-6f) || !std::isfinite(length)) continue;
    const glm::vec3 d = (step * std::min(length, 1.f) / length) * push;
    x[v] += d;
    previous_[v] += d;
    ++stats_.untangled_vertices;
  }
}

void SelfCollision::set_seams(const ClothModel& model, const SeamSet& seams) {
  seam_neighbours_.build(model.topology, model.vertex_count(), model.triangle_count(), model.triangle, seams);
  detected_ = false;  // contacts found before the seams may join features that are neighbours now
}

void SelfCollision::set_cut_twins(const ClothModel& model, const std::vector<std::array<uint32_t, 2>>& twins) {
  cut_twins_.build(model.topology, model.vertex_count(), model.triangle_count(), model.triangle, twins);
  detected_ = false;
}

void SelfCollision::carry_overlaps(const SelfCollision& old, const std::vector<uint32_t>& triangle_parent) {
  if (old.overlaps_.empty()) return;
  // The old triangles' pieces, each old pair becoming every pair of their pieces, with its side.
  const size_t nold = old.overlap_held_.size();
  std::vector<uint32_t> start(nold + 1, 0), piece(triangle_parent.size());
  for (uint32_t parent : triangle_parent)
    if (parent < nold) ++start[parent + 1];
  for (size_t t = 0; t < nold; ++t) start[t + 1] += start[t];
  std::vector<uint32_t> fill(start.begin(), start.end() - 1);
  for (uint32_t t = 0; t < triangle_parent.size(); ++t)
    if (triangle_parent[t] < nold) piece[fill[triangle_parent[t]]++] = t;
  for (const OverlapPair& o : old.overlaps_) {
    if (o.pair.a >= nold || o.pair.b >= nold) continue;
    for (uint32_t i = start[o.pair.a]; i < start[o.pair.a + 1]; ++i)
      for (uint32_t j = start[o.pair.b]; j < start[o.pair.b + 1]; ++j) overlaps_.push_back({{piece[i], piece[j]}, o.side});
  }
  separating_.reserve(overlaps_.size());
  scan_pending_ = true;  // the scan arms the pairs still lying on each other (scan_tangles)
}

uint64_t SelfCollision::find_tangles(const ClothModel& model, const glm::vec3* xp) {
  scan_pending_ = false;
  ticks_since_scan_ = 0;
  contacts_since_scan_ = false;
  ++tangle_scans_;
  bvh_.refit(model, xp, xp, 0.f);
  // Looking for crossings: no fan culling (a fan that overlaps itself is one).
  bvh_.self_pairs(config_.cone_limit, pairs_, config_.max_pairs_per_triangle * model.triangle_count(), false);
  std::fill(tangled_.begin(), tangled_.end(), uint8_t(0));
  uint64_t found = 0;
  tangled_pairs_.clear();
  for (const TrianglePair& p : pairs_) {
    if (neighbours(p.a, p.b, model.triangle) || !pair_crosses(model, p, xp)) continue;
    tangled_[p.a] = tangled_[p.b] = 1;
    ++found;
    tangled_pairs_.push_back(p);
  }
  dilate_tangles(model);
  for (size_t t = 0; t < tangled_.size(); ++t) tangled_[t] |= overlap_held_[t];  // still being drawn apart
  tangled_count_ = size_t(std::count(tangled_.begin(), tangled_.end(), uint8_t(1)));
  if (!config_.exclude_tangled) {
    std::fill(tangled_.begin(), tangled_.end(), uint8_t(0));
    tangled_count_ = 0;
    tangled_pairs_.clear();
  }
  return found;
}

// Grows the flagged triangles (crossing ones) by tangle_rings rings of vertex neighbours: the layers are
// left alone around a crossing too, where the start-of-step sides are those of the tangle and the
// contacts would only hold it (and squeeze the part of a layer that went through against the floor).
void SelfCollision::dilate_tangles(const ClothModel& model) {
  for (int ring = 0; ring < config_.tangle_rings; ++ring) {
    std::fill(tangle_vertex_.begin(), tangle_vertex_.end(), uint8_t(0));
    for (size_t t = 0; t < tangled_.size(); ++t)
      if (tangled_[t])
        for (uint32_t v : model.triangle[t]) tangle_vertex_[v] = 1;
    for (size_t t = 0; t < tangled_.size(); ++t) {
      const auto& tri = model.triangle[t];
      if (tangle_vertex_[tri[0]] || tangle_vertex_[tri[1]] || tangle_vertex_[tri[2]]) tangled_[t] = 1;
    }
  }
  tangled_count_ = size_t(std::count(tangled_.begin(), tangled_.end(), uint8_t(1)));
}

void SelfCollision::measure_travel(const glm::vec3* x) {
  const glm::vec3* xp = previous_.data();
  for (size_t i = 0; i < travel_.size(); ++i) travel_[i] = glm::length(x[i] - xp[i]);
}

// The feature tests of one candidate pair: contacts are appended; on the first detection of a step, the
// tangled pairs still crossing at its start are confirmed.
void SelfCollision::test_pair(const ClothModel& model, const glm::vec3* x, const TrianglePair& p, bool first) {
  const float reach = config_.thickness * config_.detection_scale;
  const auto& mask = bvh_.feature_mask();
  const auto& normal = bvh_.triangle_normals();
  const auto& ta = model.triangle[p.a];
  const auto& tb = model.triangle[p.b];
  if (neighbours(p.a, p.b, model.triangle)) return;  // a seam's lips meet (sim/seam_neighbours.h)
  // Separating plane (each triangle's own): no point of one triangle is nearer the other than its
  // distance to the other's plane, and over the step each point of the pair came from within `moved` of
  // where it is now. A pair farther than reach + 2 moved stayed beyond reach the whole step: no contact,
  // no crossing. Most overlapping boxes end here.
  float moved = 0.f;
  for (int k = 0; k < 3; ++k) moved = std::max({moved, travel_[ta[k]], travel_[tb[k]]});
  auto separated = [&](float limit) {
    return beyond_plane(x, ta, x[tb[0]], normal[p.b], limit) || beyond_plane(x, tb, x[ta[0]], normal[p.a], limit);
  };
  if (separated(reach + 2.f * moved)) {
    ++stats_.separated;
    return;
  }
  if (fans_usable() && in_flat_fans(p, ta, tb)) {
    ++stats_.flat_fans;
    return;
  }
  if (moved > 0.25f * reach) {
    // Fast: the bound again with the motion relative to the pair's mean (a common translation changes
    // no distance). The table demo's cloth dragged at a metre a second sent 1,600 pairs a tick past
    // the absolute bound.
    const glm::vec3* xp = previous_.data();
    glm::vec3 d[6], mean(0.f);
    for (int k = 0; k < 3; ++k) {
      d[k] = x[ta[k]] - xp[ta[k]];
      d[3 + k] = x[tb[k]] - xp[tb[k]];
      mean += d[k] + d[3 + k];
    }
    mean /= 6.f;
    float moved2 = 0.f;
    for (const glm::vec3& dk : d) moved2 = std::max(moved2, glm::dot(dk - mean, dk - mean));
    if (separated(reach + 2.f * std::sqrt(moved2))) {
      ++stats_.separated;
      return;
    }
  }
  if (tangled_count_ > 0 && tangled_[p.a] && tangled_[p.b]) {
    // Both in the tangle: left out (no repulsion storm, no pull-back through the other layer). The
    // triangles still crossing at the start of the step stay flagged; the set only shrinks.
    if (first) note_still_tangled(model, p);
    return;
  }
  const bool beside_tangle = touches_tangle(p);
  if (first && beside_tangle && note_still_tangled(model, p)) {
    // Beside the tangle and crossing where the step starts: its contour moved on into this pair, which
    // joins the tangle (left out, its contour shortened), rather than have contacts hold it crossed.
    return;
  }
  ++stats_.candidate_pairs;
  uint8_t ma = mask[p.a], mb = mask[p.b];
  // Next to a tangle every feature of the pair is tested, not only the ones it owns: a shared edge
  // owned by the crossed (left-out) neighbour would otherwise be tested by no pair, and the crossing
  // would slide over it into this triangle (the tangle spreads).
  if (beside_tangle) ma = mb = 0x3f;
  // Layers the rest shape holds closer than the thickness keep their rest gap (sim/rest_gap.h).
  const bool one_piece = config_.rest_gaps && piece_[ta[0]] == piece_[tb[0]];
  pair_target_ = one_piece && near_at_rest(rest_, ta, tb, config_.thickness)
                     ? std::min(config_.thickness, rest_gap_triangles(rest_, ta, tb))
                     : config_.thickness;
  for (int k = 0; k < 3; ++k) {
    if (ma & (1u << k)) add_vertex_triangle(x, ta[k], tb);
    if (mb & (1u << k)) add_vertex_triangle(x, tb[k], ta);
  }
  for (int ka = 0; ka < 3; ++ka) {
    if (!(ma & (1u << (3 + ka)))) continue;
    for (int kb = 0; kb < 3; ++kb) {
      if (!(mb & (1u << (3 + kb)))) continue;
      add_edge_edge(x, ta[(ka + 1) % 3], ta[(ka + 2) % 3], tb[(kb + 1) % 3], tb[(kb + 2) % 3]);
    }
  }
}

// Detection again, only around what moved since the contacts were found: after the impact zones moved
// their vertices (project), and with carry_contacts at the start of the next tick (first). Contacts are
// found out to reach = detection_scale x thickness so that motions smaller than the difference cannot
// close a gap unseen. Each vertex keeps the position its contacts were found at (detected_at_) and is
// looked at again once farther than s from it. A pair of features was last looked at when one of its
// vertices was (or in a full detection): since then that vertex moved less than s, the other less than
// 2 s (within s of its position then and now), so with s = (reach - thickness) / 3 a pair that was beyond
// reach then is beyond the thickness now. So only the vertices that moved farther than s, that a zone
// moved (held now), whose triangles turned (below), or, from one tick to the next, whose tests depended
// on where the step started (a crossing, a crossing beside a triangle, an edge pair closest at an end
// after a large motion, a contact left violated: recheck_) have their contacts and the candidate pairs of
// their triangles dropped and looked for again, by the full detection's traversal restricted to the
// flagged subtrees; the rest is what a full detection would find again, or lies beyond the thickness.
// Re-detecting the whole cloth after the zones was 6.8 of 10.4 ms of detection a tick on the table
// scene's crumpled silk, and most of the tangled folded-over mesh's cost.
void SelfCollision::detect_around_moved(const ClothModel& model, const glm::vec3* x, bool first) {
  const size_t n = moved_.size(), ntri = moved_triangle_.size();
  const float reach = config_.thickness * config_.detection_scale;
  const float slack = (reach - config_.thickness) / 3.f;
  for (size_t i = 0; i < n; ++i) {
    const glm::vec3 d = x[i] - detected_at_[i];
    const bool zoned = !first && zoned_[i] && d != glm::vec3(0.f);
    moved_[i] = (zoned || (first && recheck_[i]) || glm::dot(d, d) > slack * slack) ? 1 : 0;
  }
  // What recheck_ marks depends on where the step started, the same for every detection of a tick: read
  // at the tick's first, where the tests below mark again what stays undecided.
  if (first) std::fill(recheck_.begin(), recheck_.end(), uint8_t(0));
  // The curvature criterion left out the pairs inside patches whose normals spread less than cone_limit,
  // whatever their distance; it holds up to 90 degrees (a height field). A triangle turned by more than
  // kTurnLimit since its pairs were looked at has its vertices looked at again, so that a patch left out
  // then spreads less than cone_limit + 2 kTurnLimit now.
  bvh_.refit(model, x, previous_.data(), 0.5f * reach);
  const std::vector<glm::vec3>& normal = bvh_.triangle_normals();
  const float turn_cos = std::cos(kTurnLimit);
  for (size_t t = 0; t < ntri; ++t)
    if (glm::dot(normal[t], detected_normal_[t]) < turn_cos) {
      const auto& tri = model.triangle[t];
      moved_[tri[0]] = moved_[tri[1]] = moved_[tri[2]] = 1;
    }
  size_t flagged = 0;
  for (size_t t = 0; t < ntri; ++t) {
    const auto& tri = model.triangle[t];
    moved_triangle_[t] = moved_[tri[0]] | moved_[tri[1]] | moved_[tri[2]];
    flagged += moved_triangle_[t];
  }
  // Past a share of flagged triangles the full detection costs less (measured: a quarter within a tick on
  // the moving 16k crumple, three quarters from one tick to the next on the fold at rest).
  if (!config_.local_redetection || flagged * kFullRedetection > (first ? 3 : 1) * ntri) {
    contacts_.clear();
    detect(model, x, first, true);  // the tree was refitted above
    return;
  }
  ++stats_.detections;
  ++stats_.local_detections;
  for (size_t i = 0; i < n; ++i)
    if (moved_[i]) detected_at_[i] = x[i];
  for (size_t t = 0; t < ntri; ++t)
    if (moved_triangle_[t]) detected_normal_[t] = normal[t];
  size_t kept = 0;
  for (SelfContact& c : contacts_) {
    if (moved_[c.vertex[0]] | moved_[c.vertex[1]] | moved_[c.vertex[2]] | moved_[c.vertex[3]]) continue;
    c.inv_mass_sum = effective_inv_mass(c.vertex, c.weight);  // held now: zoned where it stood, a collider
    if (first) c.pushed = 0.f;
    if (&contacts_[kept] != &c) contacts_[kept] = c;
    ++kept;
    ++(c.edge_edge ? stats_.edge_edge : stats_.vertex_triangle);  // in force this step, as if found again
  }
  stats_.kept_contacts += kept;
  contacts_.resize(kept);
  kept = 0;
  for (const TrianglePair& p : pairs_)
    if (!(moved_triangle_[p.a] | moved_triangle_[p.b])) pairs_[kept++] = p;
  pairs_.resize(kept);
  bvh_.pairs_touching(moved_triangle_.data(), config_.cone_limit, pairs_,
                      config_.max_pairs_per_triangle * model.triangle_count(), fans_usable());
  stats_.pairs_capped += bvh_.stats().truncated ? 1 : 0;
  if (bvh_.stats().truncated) detected_ = false;
  measure_travel(x);
  rest_ = model.rest_position.data();
  // A flagged triangle may have corners that did not move: its features among those, against another
  // unmoved feature, gave contacts that were kept.
  only_moved_ = true;
  for (size_t k = kept; k < pairs_.size(); ++k) test_pair(model, x, pairs_[k], false);
  only_moved_ = false;
  if (first && tangled_count_ > 0) {
    // Which tangled pairs still cross at the start of the step, kept pairs included (test_pair does this
    // in a full detection).
    for (const TrianglePair& p : pairs_)
      if (tangled_[p.a] || tangled_[p.b]) note_still_tangled(model, p);  // a neighbour crossing joins
    update_tangles(model);
  }
  orient_regions(x);
}

void SelfCollision::detect(const ClothModel& model, const glm::vec3* x, bool first, bool refitted) {
  ++stats_.detections;
  const float reach = config_.thickness * config_.detection_scale;
  rest_ = model.rest_position.data();
  if (!refitted) bvh_.refit(model, x, previous_.data(), 0.5f * reach);
  std::copy(x, x + detected_at_.size(), detected_at_.begin());  // for detect_around_moved
  std::copy(bvh_.triangle_normals().begin(), bvh_.triangle_normals().end(), detected_normal_.begin());
  bvh_.self_pairs(config_.cone_limit, pairs_, config_.max_pairs_per_triangle * model.triangle_count(), fans_usable());
  stats_.pairs_capped += bvh_.stats().truncated ? 1 : 0;
  if (bvh_.stats().truncated) detected_ = false;
  stats_.cone_skips = bvh_.stats().cone_skips;
  stats_.adjacent_culled = bvh_.stats().adjacent_culled;
  measure_travel(x);
  for (const TrianglePair& p : pairs_) test_pair(model, x, p, first);
  if (first && tangled_count_ > 0) update_tangles(model);
  orient_regions(x);
}

// A tangled pair that still crosses at the start of the step keeps both its triangles flagged.
bool SelfCollision::note_still_tangled(const ClothModel& model, const TrianglePair& p) {
  if (neighbours(p.a, p.b, model.triangle) || !pair_crosses(model, p, previous_.data())) return false;
  still_tangled_[p.a] = still_tangled_[p.b] = 1;
  ++stats_.intersecting_pairs;
  tangled_pairs_.push_back(p);
  return true;
}

// After the tick's first detection marked the tangled pairs still crossing at the start of the step
// (still_tangled_): a tangled triangle stays flagged while one of its pairs still crosses; the others are
// free again. The region grows only along the crossing contour (a pair beside the tangle that crosses
// joins it, test_pair); its dilation by tangle_rings stays within the last region.
// A triangle whose flag changed has its vertices detected again next time (its pairs' contacts change).
void SelfCollision::update_tangles(const ClothModel& model) {
  tangled_.swap(still_tangled_);
  std::copy(tangled_.begin(), tangled_.end(), crossing_now_.begin());
  dilate_tangles(model);
  for (size_t t = 0; t < tangled_.size(); ++t)  // overlapping pairs still being drawn apart stay left out
    if (overlap_held_[t]) tangled_[t] = crossing_now_[t] = 1;
  for (size_t t = 0; t < tangled_.size(); ++t) {
    const uint8_t before = still_tangled_[t];
    tangled_[t] = tangled_[t] & (before | crossing_now_[t]);
    if (tangled_[t] != before)
      for (uint32_t v : model.triangle[t]) recheck_[v] = 1;
  }
  std::fill(still_tangled_.begin(), still_tangled_.end(), uint8_t(0));
  tangled_count_ = size_t(std::count(tangled_.begin(), tangled_.end(), uint8_t(1)));
}

void SelfCollision::push_contact(const std::array<uint32_t, 4>& vert, const std::array<float, 4>& w,
                                 const glm::vec3& normal, bool edge_edge, float target) {
  SelfContact c;
  c.target = target;
  c.edge_edge = edge_edge ? 1 : 0;
  c.vertex = vert;
  c.weight = w;
  c.normal = normal;
  c.inv_mass_sum = effective_inv_mass(vert, w);
  // Every vertex kinematic: nothing can move. A contact whose free vertices are only held by a collider
  // (inv_mass_sum 0) stays: the passes skip it, but if it is violated (an upper layer that landed on the
  // floor beside the lower one within the step) the impact zones take it.
  bool any_free = false;
  for (int k = 0; k < 4; ++k) any_free = any_free || (w[k] != 0.f && !kinematic_[vert[k]]);
  if (!any_free) return;
  if (contacts_.size() >= config_.max_contacts_per_vertex * previous_.size()) {
    ++stats_.dropped;
    return;
  }
  contacts_.push_back(c);
}

void SelfCollision::add_vertex_triangle(const glm::vec3* x, uint32_t v, const std::array<uint32_t, 3>& tri) {
  if (has_vertex(tri, v)) return;
  if (only_moved_ && !(moved_[v] | moved_[tri[0]] | moved_[tri[1]] | moved_[tri[2]])) return;
  const glm::vec3* xp = previous_.data();
  const glm::vec3 &a = x[tri[0]], &b = x[tri[1]], &c = x[tri[2]];
  const float reach = config_.thickness * config_.detection_scale;
  const float* moved = travel_.data();
  const float travel = moved[v] + std::max({moved[tri[0]], moved[tri[1]], moved[tri[2]]});
  if (boxes_apart(x[v], x[v], glm::min(glm::min(a, b), c), glm::max(glm::max(a, b), c), reach + travel)) return;
  glm::vec3 w = closest_point_on_triangle(x[v], a, b, c);
  const glm::vec3 d = x[v] - (w.x * a + w.y * b + w.z * c);
  const float dist = glm::length(d);
  // Quick reject before the side test: farther than anything could have travelled this step.
  if (dist >= reach + travel) return;

  glm::vec3 normal = glm::cross(b - a, c - a);
  const float nlen = glm::length(normal);
  if (!(nlen > 0.f)) return;
  normal /= nlen;
  // Side at the start of the step, with the same barycentric point (cinematical tracking, 4.3).
  const glm::vec3 &pa = xp[tri[0]], &pb = xp[tri[1]], &pc = xp[tri[2]];
  glm::vec3 normal_prev = glm::cross(pb - pa, pc - pa);
  if (!(glm::dot(normal_prev, normal_prev) > 0.f)) normal_prev = normal;
  const float side_prev = glm::dot(xp[v] - (w.x * pa + w.y * pb + w.z * pc), normal_prev);
  const float side_now = glm::dot(d, normal);
  // A start-of-step side within rounding of zero says nothing: not a crossing.
  const bool crossed = std::abs(side_prev) > 1e-3f * config_.thickness * std::sqrt(glm::dot(normal_prev, normal_prev)) &&
                       (side_prev > 0.f) != (side_now > 0.f);
  const bool interior = w.x > 1e-4f && w.y > 1e-4f && w.z > 1e-4f;
  if (crossed) {
    if (!interior) {
      // Crossed the triangle's plane and is now beside the triangle: it passed beside it, or went
      // through near an edge and moved on (fast hands: 2.5 cm a tick against a 4 mm thickness). Where
      // it met the plane decides; the contact then acts at that point of the triangle.
      const float tc = coplanar_time(x, xp, {tri[0], tri[1], tri[2], v});
      recheck_[v] = recheck_[tri[0]] = recheck_[tri[1]] = recheck_[tri[2]] = 1;  // decided by the motion
      if (tc < 0.f) return;
      const glm::vec3 ta = at(x, xp, tri[0], tc), tb = at(x, xp, tri[1], tc), tcn = at(x, xp, tri[2], tc);
      const glm::vec3 vc = at(x, xp, v, tc);
      const glm::vec3 wc = closest_point_on_triangle(vc, ta, tb, tcn);
      // At the sampled root the vertex is in the plane, up to the motion of one sample interval.
      const float beside = glm::length(vc - (wc.x * ta + wc.y * tb + wc.z * tcn));
      if (beside > 1e-3f * config_.thickness + travel / float(kCoplanarSamples)) return;  // passed beside
      w = wc;
    }
    ++stats_.crossed;
    // Oriented by this step's start: the next tick's start may be another (a pull-back left undone).
    recheck_[v] = recheck_[tri[0]] = recheck_[tri[1]] = recheck_[tri[2]] = 1;
  } else if (dist >= reach) {
    return;
  }
  const float sign = side_prev >= 0.f ? 1.f : -1.f;
  const glm::vec3 n = (!crossed && dist > 1e-3f * config_.thickness) ? d / dist : sign * normal;
  push_contact({v, tri[0], tri[1], tri[2]}, {1.f, -w.x, -w.y, -w.z}, n, false, pair_target_);
  ++stats_.vertex_triangle;
}

void SelfCollision::add_edge_edge(const glm::vec3* x, uint32_t i0, uint32_t i1, uint32_t j0, uint32_t j1) {
  if (i0 == j0 || i0 == j1 || i1 == j0 || i1 == j1) return;
  if (only_moved_ && !(moved_[i0] | moved_[i1] | moved_[j0] | moved_[j1])) return;
  const glm::vec3* xp = previous_.data();
  const float reach = config_.thickness * config_.detection_scale;
  const float travel = std::max(travel_[i0], travel_[i1]) + std::max(travel_[j0], travel_[j1]);
  // Every branch below needs the edges closer than reach + travel.
  if (boxes_apart(glm::min(x[i0], x[i1]), glm::max(x[i0], x[i1]), glm::min(x[j0], x[j1]), glm::max(x[j0], x[j1]),
                  reach + travel))
    return;
  SegmentParams st = closest_points_on_segments(x[i0], x[i1], x[j0], x[j1]);
  if (st.s <= 0.f || st.s >= 1.f || st.t <= 0.f || st.t >= 1.f) {
    // End points are vertex proximities, which the vertex-triangle tests cover; but two edges that
    // crossed during the step and moved on can be closest at an end now. Checked only when they moved
    // by more than a thickness (a crossing needs that much), where they became coplanar.
    if (!(travel > config_.thickness)) return;
    const glm::vec3 gap_now = x[i0] + st.s * (x[i1] - x[i0]) - (x[j0] + st.t * (x[j1] - x[j0]));
    if (glm::length(gap_now) >= reach + travel) return;
    recheck_[i0] = recheck_[i1] = recheck_[j0] = recheck_[j1] = 1;  // decided by the motion
    const float tc = coplanar_time(x, xp, {i0, i1, j0, j1});
    if (tc < 0.f) return;
    const glm::vec3 a0 = at(x, xp, i0, tc), a1 = at(x, xp, i1, tc), b0 = at(x, xp, j0, tc), b1 = at(x, xp, j1, tc);
    const SegmentParams sc = closest_points_on_segments(a0, a1, b0, b1);
    if (sc.s <= 0.f || sc.s >= 1.f || sc.t <= 0.f || sc.t >= 1.f) return;
    const glm::vec3 dc = (a0 + sc.s * (a1 - a0)) - (b0 + sc.t * (b1 - b0));
    // Coplanar but apart: no crossing (up to the motion of one sample interval at the sampled root).
    if (glm::length(dc) > 0.25f * config_.thickness + travel / float(kCoplanarSamples)) return;
    glm::vec3 axis = glm::cross(x[i1] - x[i0], x[j1] - x[j0]);
    const glm::vec3 d_prev = (xp[i0] + sc.s * (xp[i1] - xp[i0])) - (xp[j0] + sc.t * (xp[j1] - xp[j0]));
    if (!(glm::dot(axis, axis) > 0.f)) axis = d_prev;
    if (!(glm::dot(axis, axis) > 0.f)) return;
    axis = glm::normalize(axis);
    const float side_prev = glm::dot(d_prev, axis);
    if (!(std::abs(side_prev) > 1e-3f * config_.thickness)) return;
    ++stats_.crossed;
    push_contact({i0, i1, j0, j1}, {1.f - sc.s, sc.s, sc.t - 1.f, -sc.t}, side_prev > 0.f ? axis : -axis, true,
                 pair_target_);
    ++stats_.edge_edge;
    return;
  }
  const glm::vec3 p = x[i0] + st.s * (x[i1] - x[i0]), q = x[j0] + st.t * (x[j1] - x[j0]);
  const glm::vec3 d = p - q;
  const float dist = glm::length(d);
  if (dist >= reach + travel) return;

  // Side at the start of the step, measured along ONE axis for both times: the current common normal
  // of the two edges (or their separation when they are nearly parallel). Comparing d_prev . axis_prev
  // with d . axis, as a side test per time, is wrong for edges of two layers that rotate relative to
  // each other in their plane: e_i x e_j flips sign as they pass through parallel, which reads as a
  // crossing of layers 5 mm apart, and the "pull back" then pushes them through each other (the
  // full-size stacked press and drop fold blew up from exactly this).
  const glm::vec3 d_prev = (xp[i0] + st.s * (xp[i1] - xp[i0])) - (xp[j0] + st.t * (xp[j1] - xp[j0]));
  glm::vec3 axis = glm::cross(x[i1] - x[i0], x[j1] - x[j0]);
  const float alen = glm::length(axis);
  if (alen > 1e-3f * glm::length(x[i1] - x[i0]) * glm::length(x[j1] - x[j0])) {
    axis /= alen;
  } else {
    // Nearly parallel edges: no reliable common normal; use the separation direction.
    if (!(dist > 1e-3f * config_.thickness)) return;
    axis = d / dist;
  }
  const float side_prev = glm::dot(d_prev, axis), side_now = glm::dot(d, axis);
  // A start-of-step side within rounding of zero says nothing: not a crossing.
  const bool crossed = std::abs(side_prev) > 1e-3f * config_.thickness && (side_prev > 0.f) != (side_now > 0.f);
  const float sign = side_prev >= 0.f ? 1.f : -1.f;
  if (crossed) {
    ++stats_.crossed;
    recheck_[i0] = recheck_[i1] = recheck_[j0] = recheck_[j1] = 1;  // oriented by this step's start
  } else if (dist >= reach) {
    return;
  }
  const glm::vec3 n = (!crossed && dist > 1e-3f * config_.thickness) ? d / dist : sign * axis;
  push_contact({i0, i1, j0, j1}, {1.f - st.s, st.s, st.t - 1.f, -st.t}, n, true, pair_target_);
  ++stats_.edge_edge;
}

uint32_t SelfCollision::region_root(uint32_t c) {
  while (region_parent_[c] != c) {
    region_parent_[c] = region_parent_[region_parent_[c]];  // path halving
    c = region_parent_[c];
  }
  return c;
}

// Collision consistency (section 4.3): the start-of-step side of each contact keeps a layer that was
// already on the wrong side of another (one fast crossing in a shake) on that wrong side, so a tangle
// is kept forever. Contacts are grouped into contact regions between two surface patches, walking the
// neighbourhoods: two vertex-triangle contacts belong to one region when their vertices are the same or
// neighbours and their triangles share a corner (so the region is one patch of one layer against one
// patch of another; a vertex squeezed between two other layers has its two sides in two regions). Each
// contact's side is measured along its triangle's winding normal, which is consistent over a patch of
// the one mesh; the region's majority side is forced on its minority, whose vertices the passes then
// push back through (untangling). Only contacts whose closest point is inside the triangle vote and are
// forced (next to a patch's boundary a layer may legitimately wrap around it). Edge-edge contacts between
// an edge of a forced vertex and an edge of its triangle are forced to agree, or they would hold the
// tangle. Volino weighs the votes by reliability; here they count equally, and the majority must
// outnumber the minority by orientation_majority.
void SelfCollision::orient_regions(const glm::vec3* x) {
  if (!config_.consistent_orientation) return;
  const size_t nc = contacts_.size(), n = previous_.size();
  if (region_parent_.capacity() < contacts_.capacity()) {  // grow with the contacts, not per tick
    region_parent_.reserve(contacts_.capacity());
    region_side_.reserve(contacts_.capacity());
    region_vote_.reserve(2 * contacts_.capacity());
    by_vertex_.reserve(contacts_.capacity());
  }
  region_parent_.resize(nc);
  region_side_.resize(nc);
  region_vote_.resize(2 * nc);
  std::fill(by_vertex_start_.begin(), by_vertex_start_.end(), 0u);
  auto interior = [](const SelfContact& c) { return c.weight[1] < -1e-4f && c.weight[2] < -1e-4f && c.weight[3] < -1e-4f; };
  size_t voters = 0;
  for (size_t ci = 0; ci < nc; ++ci) {
    const SelfContact& c = contacts_[ci];
    region_parent_[ci] = uint32_t(ci);
    region_vote_[2 * ci] = region_vote_[2 * ci + 1] = 0;
    region_side_[ci] = 0;
    if (c.edge_edge || !interior(c)) continue;
    const glm::vec3& a = x[c.vertex[1]];
    const float side = glm::dot(c.normal, glm::cross(x[c.vertex[2]] - a, x[c.vertex[3]] - a));
    if (side == 0.f) continue;
    region_side_[ci] = side > 0.f ? 1 : -1;
    ++by_vertex_start_[c.vertex[0] + 1];
    ++voters;
  }
  if (voters < 2) return;
  for (size_t i = 0; i < n; ++i) by_vertex_start_[i + 1] += by_vertex_start_[i];
  by_vertex_.resize(voters);
  for (size_t ci = 0; ci < nc; ++ci)
    if (region_side_[ci] != 0) by_vertex_[by_vertex_start_[contacts_[ci].vertex[0]]++] = uint32_t(ci);
  for (size_t i = n; i > 0; --i) by_vertex_start_[i] = by_vertex_start_[i - 1];  // undo the cursor shift
  by_vertex_start_[0] = 0;

  auto share_corner = [](const SelfContact& p, const SelfContact& q) {
    for (int i = 1; i < 4; ++i)
      for (int j = 1; j < 4; ++j)
        if (p.vertex[i] == q.vertex[j]) return true;
    return false;
  };
  auto link_with = [&](uint32_t ci, uint32_t u) {
    for (uint32_t k = by_vertex_start_[u]; k < by_vertex_start_[u + 1]; ++k) {
      const uint32_t cj = by_vertex_[k];
      if (cj == ci || !share_corner(contacts_[ci], contacts_[cj])) continue;
      const uint32_t ri = region_root(ci), rj = region_root(cj);
      if (ri != rj) region_parent_[rj] = ri;
    }
  };
  for (size_t i = 0; i < voters; ++i) {
    const uint32_t ci = by_vertex_[i], v = contacts_[ci].vertex[0];
    link_with(ci, v);
    for (uint32_t k = ring_start_[v]; k < ring_start_[v + 1]; ++k)
      if (ring_[k] > v) link_with(ci, ring_[k]);  // each neighbouring pair once
  }
  for (size_t ci = 0; ci < nc; ++ci)
    if (region_side_[ci] != 0) ++region_vote_[2 * region_root(uint32_t(ci)) + (region_side_[ci] > 0 ? 0 : 1)];

  // Force the minority to the majority's side.
  bool any = false;
  for (size_t ci = 0; ci < nc; ++ci) {
    if (region_side_[ci] == 0) continue;
    const uint32_t r = region_root(uint32_t(ci));
    const int32_t own = region_vote_[2 * r + (region_side_[ci] > 0 ? 0 : 1)];
    const int32_t other = region_vote_[2 * r + (region_side_[ci] > 0 ? 1 : 0)];
    if (!(float(other) >= config_.orientation_majority * float(own))) continue;
    // Forced only where an inconsistency is seen (Volino uses edge-triangle interference): at the start
    // of the step, one of the vertex's edges crossed a triangle of its own or a neighbour's contacts. A
    // region can hold both sides legitimately (a layer wrapping around another's fold), and within a step
    // the tracking (crossed contacts) is the reliable answer; a step that starts intersection-free is
    // never touched. Measured on the table.json demo: without the check about a thousand contacts a step
    // were forced and it ended with 252 crossings; checking the current positions instead of the start
    // forced contacts the tracking had right (142 crossings).
    if (!edge_crosses_region(previous_.data(), uint32_t(ci))) continue;
    SelfContact& c = contacts_[ci];
    const glm::vec3& a = x[c.vertex[1]];
    glm::vec3 winding = glm::cross(x[c.vertex[2]] - a, x[c.vertex[3]] - a);
    winding /= glm::length(winding);
    c.normal = float(-region_side_[ci]) * winding;
    c.reoriented = 1;
    forced_dir_[c.vertex[0]] = c.normal;
    forced_tri_[c.vertex[0]] = int32_t(ci);
    ++stats_.reoriented;
    any = true;
  }
  if (!any) return;
  // The forced vertex's other contacts against the same patch (its own non-voting ones, its edges against
  // edges touching its triangle, the patch's vertices against its triangles) would still hold it on the
  // wrong side, and their violation would zone it back to its tangled start: they take the majority's
  // side too, along the forced direction. The normal points from the second feature to the first.
  for (SelfContact& c : contacts_) {
    if (c.reoriented) continue;
    for (int k = 0; k < 4; ++k) {
      const int32_t f = forced_tri_[c.vertex[k]];
      if (f < 0 || c.weight[k] == 0.f) continue;
      const SelfContact& vt = contacts_[size_t(f)];
      const int split = c.edge_edge ? 2 : 1;  // slots [0, split) are the first feature
      const bool first = k < split;
      bool touches = false;
      for (int j = first ? split : 0; j < (first ? 4 : split); ++j)
        touches = touches || c.vertex[j] == vt.vertex[1] || c.vertex[j] == vt.vertex[2] || c.vertex[j] == vt.vertex[3];
      if (!touches) continue;
      c.normal = (first ? 1.f : -1.f) * forced_dir_[c.vertex[k]];
      c.reoriented = 1;
      ++stats_.reoriented;
      break;
    }
  }
  for (const SelfContact& c : contacts_)
    if (c.reoriented && !c.edge_edge) forced_tri_[c.vertex[0]] = -1;
}

bool SelfCollision::edge_crosses_region(const glm::vec3* x, uint32_t ci) const {
  const uint32_t v = contacts_[ci].vertex[0];
  auto crosses_contacts_of = [&](uint32_t u, uint32_t w) {  // edge (v, u) against w's contact triangles
    for (uint32_t k = by_vertex_start_[w]; k < by_vertex_start_[w + 1]; ++k) {
      const SelfContact& c = contacts_[by_vertex_[k]];
      if (c.vertex[1] == u || c.vertex[2] == u || c.vertex[3] == u) continue;
      if (segment_crosses_triangle(x[v], x[u], x[c.vertex[1]], x[c.vertex[2]], x[c.vertex[3]])) return true;
    }
    return false;
  };
  for (uint32_t k = ring_start_[v]; k < ring_start_[v + 1]; ++k) {
    const uint32_t u = ring_[k];
    if (crosses_contacts_of(u, v) || crosses_contacts_of(u, u)) return true;
  }
  return false;
}

// First zoned vertex of a project(): reset the zone sets (O(n), only when needed; the sets persist over
// the sweeps of one project()).
void SelfCollision::start_zones() {
  if (zones_started_) return;
  zones_started_ = true;
  for (size_t i = 0; i < zone_parent_.size(); ++i) zone_parent_[i] = uint32_t(i);
  std::fill(zoned_.begin(), zoned_.end(), uint8_t(0));
  std::fill(zone_size_.begin(), zone_size_.end(), 1u);
}

// Puts vertex i into the zone being formed, whose root is `first` (-1 before its first vertex), merging
// the zone i was in. True when the zones grew.
bool SelfCollision::join_zone(uint32_t i, int64_t& first) {
  bool grew = false;
  if (!zoned_[i]) {
    zoned_[i] = 1;
    stats_.largest_zone = std::max<uint64_t>(stats_.largest_zone, 1);
    grew = true;
  }
  const uint32_t r = zone_root(i);
  if (first < 0) {
    first = r;
  } else if (uint32_t(first) != r) {
    // Capped: the contact's vertices stay in two zones (each still rigid) rather than one that would
    // swallow the cloth (a tangled mesh merged almost every vertex into one zone).
    if (zone_size_[size_t(first)] + zone_size_[r] > config_.max_zone_vertices) {
      ++stats_.zones_capped;
      return grew;
    }
    zone_parent_[r] = uint32_t(first);
    zone_size_[size_t(first)] += zone_size_[r];
    stats_.largest_zone = std::max<uint64_t>(stats_.largest_zone, zone_size_[size_t(first)]);
    grew = true;
  }
  return grew;
}

uint32_t SelfCollision::zone_root(uint32_t i) {
  while (zone_parent_[i] != i) {
    zone_parent_[i] = zone_parent_[zone_parent_[i]];  // path halving
    i = zone_parent_[i];
  }
  return i;
}

// Failsafe after the Gauss-Seidel passes (a deviation from Volino, whose iterations are trusted to
// converge): where contacts conflict (a vertex squeezed between two layers closer than twice the
// thickness, a crumpled patch next to a held vertex) the passes fight and leave contacts violated, or
// throw vertices. Every contact still closer than (1 - zone_violation) x thickness joins its free
// vertices into an impact zone; each zone then moves as one rigid translation from its start-of-step
// position with its mass-weighted mean velocity (momentum kept), so nothing inside it can cross what it
// did not cross at the start of the step (Provot 1997's and Bridson et al. 2002's rigid impact zones,
// translation only). Contacts the zones newly violate join them, for a few rounds.
void SelfCollision::impact_zones(const ClothModel& model, ClothState& state, float h) {
  glm::vec3* x = state.position.data();
  const uint8_t* kinematic = state.kinematic.data();
  const float keep = 1.f - config_.zone_violation;
  auto violated = [&](const SelfContact& c) {
    // A reoriented contact is violated by design (its vertex is on the wrong side, the passes bring it
    // back over a few steps); a zone would move it rigidly from its tangled start and keep the tangle.
    if (c.reoriented) return false;
    glm::vec3 r(0.f);
    for (int k = 0; k < 4; ++k) r += c.weight[k] * x[c.vertex[k]];
    return glm::dot(r, c.normal) < keep * c.target;
  };
  for (int round = 0; round < config_.zone_rounds; ++round) {
    bool grew = false;
    for (const SelfContact& c : contacts_) {
      if (!violated(c)) continue;
      start_zones();
      int64_t first = -1;
      for (int k = 0; k < 4; ++k) {
        const uint32_t i = c.vertex[k];
        if (!kinematic[i] && c.weight[k] != 0.f && join_zone(i, first)) grew = true;
      }
    }
    if (!grew) break;
    zones_grew_ = true;
    move_zones(model, state, h);
  }
}

// Each zone moves as one translation from its start-of-step position with its mass-weighted mean velocity.
void SelfCollision::move_zones(const ClothModel& model, ClothState& state, float h) {
  glm::vec3* x = state.position.data();
  glm::vec3* v = state.velocity.data();
  const size_t n = zone_parent_.size();
  for (size_t i = 0; i < n; ++i)
    if (zoned_[i]) {
      zone_momentum_[zone_root(uint32_t(i))] = glm::vec3(0.f);
      zone_mass_[zone_root(uint32_t(i))] = 0.f;
    }
  for (size_t i = 0; i < n; ++i)
    if (zoned_[i]) {
      const uint32_t r = zone_root(uint32_t(i));
      zone_momentum_[r] += model.mass[i] * v[i];
      zone_mass_[r] += model.mass[i];
    }
  stats_.zone_vertices = 0;
  stats_.zones = 0;
  std::fill(zone_shifted_.begin(), zone_shifted_.end(), uint8_t(0));
  for (size_t i = 0; i < n; ++i)
    if (zoned_[i]) {
      const uint32_t r = zone_root(uint32_t(i));
      const glm::vec3 vbar = zone_momentum_[r] / zone_mass_[r];
      const glm::vec3 to = previous_[i] + h * vbar;
      zone_shifted_[i] = to != x[i];
      x[i] = to;
      v[i] = vbar;
      ++stats_.zone_vertices;
      stats_.zones += r == i;
    }
}

}  // namespace weft
