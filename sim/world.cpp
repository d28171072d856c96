#include "sim/world.h"

#include "sim/held_clearance.h"
#include "sim/plasticity.h"

#include <chrono>
#include <cmath>
#include <cstring>

namespace weft {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kSelfColliderRounds = 3;  // self-collision position passes alternated with the colliders
// Collider-then-limiter passes after the self-contacts' last limiting (the limiter has the last word). A
// cloth draped over a box's edge: 0.20 max strain with 1, 0.19 with 2, 0.17 with 16 at twice the p99 tick.
constexpr int kAfterSelfContactPasses = 2;
double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

World::World(ClothModel model, const WorldConfig& config)
    : model_(std::move(model)), config_(config), state_(make_rest_state(model_)),
      integrator_(make_integrator(config.integrator, model_, config.solver)) {
  const size_t n = model_.vertex_count();
  adjacency_ = build_adjacency(model_);
  flat_pieces_ = find_flat_pieces(model_, adjacency_);
  grasp_scratch_.resize(n);
  elastic_acc_.resize(n);
  held_.reserve(n);
  x_prev_.resize(n);
  strain_scratch_.resize(model_);
  tether_scratch_.resize(model_);
  // Grabs and attachments are applied on the sim thread: size everything they fill now.
  for (int d = 0; d < kDeviceCount; ++d) {
    device_sets_[d].vertex.reserve(n);
    device_sets_[d].offset.reserve(n);
    device_sets_[d].weight.reserve(n);
    tethers_[d].anchor.resize(n);
    tethers_[d].length.resize(n);
  }
  pin_tethers_.anchor.resize(n);
  pin_tethers_.length.resize(n);
  collider_contact_.resize(n);
  collider_moved_.resize(n);
  is_fixed_.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i)
    if (model_.pinned[i]) {
      fixed_.push_back(i);
      is_fixed_[i] = 1;
    }
  set_self_collision(config.self_collision);
  rebuild_pin_tethers();
}

void World::set_self_collision(const SelfCollisionConfig& config) {
  config_.self_collision = config;
  if (!config.enabled) {
    self_collision_.reset();
    return;
  }
  if (self_collision_) {
    self_collision_->set_config(config);
  } else {
    self_collision_ = std::make_unique<SelfCollision>(model_, config);
    // Triangles that already cross (a tangled mesh): found now, so the caller can warn at load.
    self_collision_->scan_tangles(model_, state_.position.data());
  }
}
World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

void World::step() {
  const float h = float(time_step());
  const auto t0 = Clock::now();

  // 1. the rigid world moves to the end of the tick (a device's collider toward the device's pose)
  for (Collider& c : colliders_) {
    Pose now, next;
    if (c.follows && device_pose(*c.follows, state_.time, now) && device_pose(*c.follows, state_.time + time_step(), next))
      c.linear_velocity = elastic_velocity(c.pose.position, now.position, next.position, h, config_.interaction.elastic);
    advance_collider(c, h);
  }
  for (RigidBox& b : boxes_) advance_rigid_box(b, model_.material.gravity, h);

  // 2. elastics: kinematic targets (B) and immediate velocity corrections (A)
  apply_elastics(h);
  const auto t1 = Clock::now();

  // 3. the dynamic step
  std::memcpy(x_prev_.data(), state_.position.data(), x_prev_.size() * sizeof(glm::vec3));
  if (self_collision_) self_collision_->begin_step(state_);
  integrator_->step(model_, state_, h);
  forget_held_shift(device_sets_, held_shift_, is_fixed_.data(), h, state_.kinematic.data(), state_.velocity.data());
  const auto t2 = Clock::now();

  // 4. corrections after the step
  apply_corrections(h);
  // Plasticity reads the corrected shape: a stretch the strain limit takes back must not set (the
  // uncorrected step can hold a grasped cloth far past the limit, which set that much in-plane strain).
  update_plasticity(model_, state_, h);  // weave creases and set (no-op unless the material has plasticity)
  const auto t3 = Clock::now();
  timing_.elastic_ms = ms_between(t0, t1);
  timing_.integrator_ms = ms_between(t1, t2);
  timing_.correction_ms = ms_between(t2, t3);
  timing_.total_ms = ms_between(t0, t3);
}

void World::apply_elastics(float h) {
  // Vertices held last tick go back to what the model says (pinned or free).
  for (uint32_t i : held_) state_.kinematic[i] = model_.pinned[i];
  held_.clear();
  elastic_acc_.clear();

  const double t = state_.time;
  const glm::vec3* x = state_.position.data();
  const InteractionConfig& ic = config_.interaction;
  for (int d = 0; d < kDeviceCount; ++d) {
    // Every tracked device's target passes the safety layer each tick, held or not, so that a grab
    // starts from a follower already on the hand.
    Pose from = attach_pose_[d], to = attach_pose_[d], raw;
    if (tracks_[d].sample(t + h, ic.extrapolation_horizon, raw)) {
      tracks_[d].sample(t, ic.extrapolation_horizon, from);
      if (ic.safety.enabled) {
        if (!safe_[d].valid) advance_safe_target(safe_[d], from, h, ic.safety);
        from = safe_[d].pose;
        to = advance_safe_target(safe_[d], raw, h, ic.safety, ic.elastic.tau);
      } else {
        to = raw;
      }
    }
    if (device_sets_[d].vertex.empty()) continue;
    accumulate_elastic_set(device_sets_[d], from, to, x, h, ic.elastic, elastic_acc_);
  }
  if (!pins_.vertex.empty()) accumulate_elastic_set(pins_, Pose{}, Pose{}, x, h, config_.interaction.elastic, elastic_acc_);
  for (const ElasticSet& set : device_sets_)
    if (!set.vertex.empty()) share_velocity_change(set, state_.velocity.data(), state_.kinematic.data(), elastic_acc_);

  apply_elastic_demands(elastic_acc_, state_.velocity.data(), state_.kinematic.data(),
                        state_.kinematic_velocity.data(), ic.elastic.max_acceleration * h);
  if (ic.strain.enabled)
    saturate_held_motion(device_sets_, tethers_, fixed_, is_fixed_.data(), ic.saturation_strain, ic.elastic.max_speed,
                         h, 4, x, state_.kinematic.data(), state_.kinematic_velocity.data());
  if (ic.clear_held_patches && !colliders_.empty())
    clear_held_of_colliders(device_sets_, colliders_, is_fixed_.data(), ic.thickness, h, x, state_.kinematic.data(),
                            state_.kinematic_velocity.data(), held_shift_);
  else
    held_shift_.fill(glm::vec3(0.f));
  for (uint32_t i : elastic_acc_.touched)
    if (state_.kinematic[i] && !model_.pinned[i]) held_.push_back(i);
  if (seams_.size())
    apply_seams(seams_, model_.mass.data(), x, state_.velocity.data(), h, config_.interaction.seam);
}

void World::apply_corrections(float h) {
  const auto t_start = Clock::now();
  const size_t n = model_.vertex_count();
  glm::vec3* x = state_.position.data();
  glm::vec3* v = state_.velocity.data();
  if (config_.interaction.strain.enabled) {
    const float slack = config_.interaction.strain.tether_slack;
    for (const Tethers& t : tethers_) apply_tethers(t, slack, model_.inv_mass.data(), state_.kinematic.data(), x, v, n);
    apply_tethers(pin_tethers_, slack, model_.inv_mass.data(), state_.kinematic.data(), x, v, n);
  }
  limit_strain(model_, state_.kinematic.data(), config_.interaction.strain, h, strain_scratch_, x, v, strain_stats_);
  const auto t_strain = Clock::now();
  const float thickness = config_.interaction.thickness;
  std::memset(collider_contact_.data(), 0, n);
  state_.contact_axes.clear();  // the next step's translation correction reads this step's contacts
  collider_moved_.clear();
  // Every pass: contacts flagged, normals into the axes, moved vertices recorded. Held patches met the
  // colliders as a whole before the step (sim/held_clearance.h): pushed out vertex by vertex again here,
  // a patch dragged over a table's edge was torn inside the hand.
  const uint8_t* held = config_.interaction.clear_held_patches ? state_.kinematic.data() : nullptr;
  CollisionPassIo io{.in_contact = collider_contact_.data(), .axes = &state_.contact_axes, .moved = &collider_moved_,
                     .skip = held};
  resolve_collisions(colliders_.data(), colliders_.size(), thickness, h, model_.inv_mass.data(), x_prev_.data(), x, v,
                     n, collision_stats_, io);
  // A collider pushing vertices out undoes part of the limiting (a hand pressing into the cloth stretches
  // the edges around the contact): alternate the two a few more times while there are contacts.
  // Rigid boxes take part in the same alternation: a box resting on a held or pinned cloth pushes its
  // vertices down after the limiting, which left the edges under its corners stretched by 50-200 %.
  uint32_t box_contacts = 0;
  for (RigidBox& b : boxes_) {
    box_contacts += resolve_cloth_box(b, thickness, model_.inv_mass.data(), x_prev_.data(), x, v, n);
    for (const Collider& c : colliders_)
      if (c.shape == ColliderShape::Plane) resolve_box_plane(b, c);
  }
  // Without boxes each pass looks only where the other one moved vertices: the limiter at the edges of
  // what the colliders pushed out, the colliders at what the limiter moved (the rest is where the last
  // pass left it). A cloth lying on the table while the hands hold it taut alternated up to 16 full
  // passes a tick (0.3-0.6 ms of a 2 ms tick on the table scene). Boxes move vertices untracked.
  const bool incremental = boxes_.empty();
  auto limit_again = [&](StrainLimitStats& stats) {
    if (incremental) limit_strain_near(model_, state_.kinematic.data(), config_.interaction.strain, h, collider_moved_,
                                       strain_scratch_, x, v, stats);
    else limit_strain(model_, state_.kinematic.data(), config_.interaction.strain, h, strain_scratch_, x, v, stats);
  };
  // The colliders again, where the last limiting moved vertices (everywhere when boxes are present).
  auto collide_again = [&](CollisionStats& stats) {
    collider_moved_.clear();
    resolve_collisions(colliders_.data(), colliders_.size(), thickness, h, model_.inv_mass.data(), x_prev_.data(), x,
                       v, n, stats,
                       {.in_contact = io.in_contact, .axes = io.axes,
                        .only = incremental ? &strain_scratch_.moved : nullptr, .moved = io.moved, .skip = held});
  };
  // Settled once the limiter moves nothing farther than a small share of the thickness: the pair
  // converges geometrically (about halving a pass) and its last millimetre-fractions took most of the
  // 16 passes while a hand dragged the cloth across the table (10.8 passes a tick on average there).
  auto settled = [&](const StrainLimitStats& limited) {
    return limited.corrected == 0 || limited.largest_move < config_.interaction.strain.contact_settle * thickness;
  };
  bool converged = collision_stats_.contacts + box_contacts == 0;
  for (int pass = 0; pass < config_.interaction.strain.contact_passes && !converged; ++pass) {
    StrainLimitStats again;
    limit_again(again);
    strain_stats_.corrected += again.corrected;
    converged = settled(again);
    if (converged) break;
    CollisionStats pass_stats;
    collide_again(incremental ? pass_stats : collision_stats_);
    box_contacts = 0;
    for (RigidBox& b : boxes_) box_contacts += resolve_cloth_box(b, thickness, model_.inv_mass.data(), x_prev_.data(), x, v, n);
  }
  if (!converged) {
    // The passes ran out with contacts still re-stretching edges (a 200 g box on a cloth held by its
    // edges: every pass, the box, 1 500 times heavier than a vertex, takes its penetration out of the
    // cloth; cube_drop.json's demo ended at 10.27 %). The limiter has the last word: what it moves now is
    // the alternation's residual (under 0.1 mm there), well inside the contact thickness.
    StrainLimitStats last;
    limit_again(last);
    strain_stats_.corrected += last.corrected;
  }
  collision_stats_.contacts += box_contacts;
  const auto t_collide = Clock::now();
  timing_.self_collision_ms = 0;
  if (self_collision_) {
    // Layers touching a collider are held by it: the self-contacts push the layer above them away,
    // rather than the lower layer into the floor (which the colliders would undo next tick, so a pile
    // would never settle).
    SelfCollision& self = *self_collision_;
    if (self.begin_resolve(model_, state_, h, collider_contact_.data())) {
      // The colliders push out what the self-contacts pushed into them, which can push it through the
      // layer above (measured: the intersections of the approximate-solver hand fold appeared in that
      // pass). So the two alternate over the same contacts, the newly floor-bound vertices held.
      for (int round = 0; round < kSelfColliderRounds; ++round) {
        self.project(model_, state_, h);
        if (colliders_.empty() || self.contacts().empty()) break;
        CollisionStats again;
        resolve_collisions(colliders_.data(), colliders_.size(), thickness, h, model_.inv_mass.data(), x_prev_.data(),
                           x, v, n, again, {.in_contact = io.in_contact, .axes = io.axes, .skip = held});
        if (again.contacts == 0 || round + 1 == kSelfColliderRounds) break;
        self.set_immovable(model_, state_, collider_contact_.data());
      }
      self.answer_velocities(state_, h);
      // The self-contacts move vertices after the limiting: a pile's layers pushed apart stretch the edges
      // between them (the table scene's demo ended with 36 edges over 10 %, one at 22 %). Limit once more,
      // then alternate with the colliders a little, the limiter last. With the colliders last, a cloth
      // draped over a box's edge ended ticks with edges at 30-176 % (push-outs of a few millimetres
      // across 1.3 cm edges).
      StrainLimitStats again;
      if (!self.contacts().empty())  // nothing moved without contacts
        limit_strain(model_, state_.kinematic.data(), config_.interaction.strain, h, strain_scratch_, x, v, again);
      strain_stats_.corrected += again.corrected;
      for (int pass = 0; again.corrected > 0 && pass < kAfterSelfContactPasses; ++pass) {
        CollisionStats last;
        collide_again(last);
        again = {};
        limit_again(again);
        strain_stats_.corrected += again.corrected;
        if (settled(again)) break;
      }
    }
    timing_.self_collision_ms = ms_between(t_collide, Clock::now());
  }
  timing_.strain_ms = ms_between(t_start, t_strain);
  timing_.collision_ms = ms_between(t_strain, t_collide);
}

void World::reset() {
  state_ = make_rest_state(model_);
  for (int d = 0; d < kDeviceCount; ++d) {
    tracks_[d].clear();
    safe_[d] = SafeTarget{};
  }
  release(Hand::Left);
  release(Hand::Right);
  held_.clear();
  elastic_acc_.clear();
  colliders_ = initial_colliders_;
  boxes_ = initial_boxes_;
  if (self_collision_) self_collision_->request_tangle_scan();  // the state jumped
}

bool World::submit_pose(const PoseSample& sample) {
  const int d = device_index(sample.device);
  PoseRejection why = (d >= 0 && d < kDeviceCount) ? tracks_[d].push(sample) : PoseRejection::Flagged;
  if (why == PoseRejection::Accepted) return true;
  ++invalid_poses_;
  ++rejected_[size_t(why)];
  return false;
}

size_t World::grab(Hand hand, const Pose& pose, float radius) { return attach_near(hand_device(hand), pose, radius); }

void World::release(Hand hand) { detach(hand_device(hand)); }

void World::rebuild_tethers(int d) {
  // anchors: the fully held vertices (weight 1: kinematic while held)
  const ElasticSet& set = device_sets_[d];
  auto& sources = tether_scratch_.sources;
  sources.clear();
  for (size_t k = 0; k < set.size(); ++k)
    if (set.weight[k] >= 1.f) sources.push_back(set.vertex[k]);
  tethers_from_sources(tethers_[d]);
}

void World::rebuild_pin_tethers() {
  // Pins are grasp points that never move: the scene's pinned vertices and the elastic pins.
  auto& sources = tether_scratch_.sources;
  sources.clear();
  for (uint32_t i = 0; i < model_.vertex_count(); ++i)
    if (model_.pinned[i]) sources.push_back(i);
  for (uint32_t i : pins_.vertex)
    if (i < model_.vertex_count() && !model_.pinned[i]) sources.push_back(i);
  tethers_from_sources(pin_tethers_);
}

void World::tethers_from_sources(Tethers& out) {
  const auto& sources = tether_scratch_.sources;
  if (sources.empty()) {
    out.active = false;
    return;
  }
  build_tethers(model_, adjacency_, sources.data(), sources.size(), tether_scratch_, out);
  if (config_.interaction.straight_tethers) straighten_tethers(model_, flat_pieces_, out);
}

size_t World::attach(Device device, const std::vector<uint32_t>& vertices, const Pose& pose) {
  ElasticSet& set = device_sets_[device_index(device)];
  set.clear();
  attach_pose_[device_index(device)] = pose;
  for (uint32_t i : vertices) {
    if (i >= model_.vertex_count()) continue;
    set.vertex.push_back(i);
    set.offset.push_back(pose.inverse_transform_point(state_.position[i]));
    set.weight.push_back(1.f);
  }
  rebuild_tethers(device_index(device));
  return set.size();
}

size_t World::attach_near(Device device, const Pose& pose, float radius) {
  const int d = device_index(device);
  PoseSample s;
  s.time = state_.time;
  s.pose = pose;
  if (check_pose_sample(s) != PoseRejection::Accepted || !(radius >= 0.f) || !std::isfinite(radius)) {
    ++invalid_poses_;
    return 0;
  }
  attach_pose_[d] = pose;
  // Hysteresis: a hand that was within the catch radius over the last hysteresis_s still catches from a
  // band beyond it (the device's recent tracked samples; an event, so the O(n) distances are affordable).
  const GraspParams& gp = config_.interaction.grasp;
  const size_t n = model_.vertex_count();
  float extra = 0.f;
  const float reach = catch_radius(radius, gp);
  for (int k = tracks_[d].size() - 1; k >= 0 && extra == 0.f; --k) {
    const PoseSample& past = tracks_[d].sample_at(k);
    if (past.time < state_.time - gp.hysteresis_s) break;
    if (nearest_distance(state_.position.data(), n, past.pose.position) <= reach) extra = gp.hysteresis_band;
  }
  const size_t held = select_grasp(model_, adjacency_, state_.position.data(), pose, radius, gp, grasp_scratch_,
                                   device_sets_[d], is_fixed_.data(), extra);
  rebuild_tethers(d);
  return held;
}

void World::detach(Device device) {
  const int d = device_index(device);
  // The held vertices keep no more speed than the hand had (smoothed): whatever the elastics stored
  // (a patch lagging a fast hand, a stretch against a pin) is not thrown with the cloth.
  const InteractionConfig& ic = config_.interaction;
  if (ic.safety.enabled && safe_[d].valid) {  // the safety layer is what measures the hand's velocity
    const float bound = ic.release_speed_factor * glm::length(safe_[d].smoothed_velocity) + ic.release_speed_slack;
    for (uint32_t i : device_sets_[d].vertex) state_.velocity[i] = cap_speed(state_.velocity[i], bound);
  }
  device_sets_[device_index(device)].clear();
  tethers_[device_index(device)].active = false;
}

void World::add_pin(uint32_t vertex, const glm::vec3& target) {
  if (vertex < is_fixed_.size() && !is_fixed_[vertex]) {
    is_fixed_[vertex] = 1;
    fixed_.push_back(vertex);
  }
  pins_.vertex.push_back(vertex);
  pins_.offset.push_back(target);
  pins_.weight.push_back(1.f);
  rebuild_pin_tethers();
}

void World::add_seam(uint32_t a, uint32_t b) {
  seams_.a.push_back(a);
  seams_.b.push_back(b);
}

size_t World::add_collider(const Collider& collider) {
  colliders_.push_back(collider);
  colliders_.back().previous_pose = collider.pose;
  initial_colliders_.push_back(colliders_.back());
  return colliders_.size() - 1;
}

size_t World::add_rigid_box(const RigidBox& box) {
  boxes_.push_back(box);
  boxes_.back().previous_pose = box.pose;
  initial_boxes_.push_back(boxes_.back());
  return boxes_.size() - 1;
}

void World::grasp_mask(uint8_t* out) const {
  std::memset(out, 0, model_.vertex_count());
  for (int d = 0; d < kDeviceCount; ++d) {
    const uint8_t bit = d == 0 ? 1 : d == 1 ? 2 : 4;
    for (uint32_t i : device_sets_[d].vertex) out[i] |= bit;
  }
  for (uint32_t i : pins_.vertex) out[i] |= 4;
  for (size_t i = 0; i < model_.vertex_count(); ++i)
    if (model_.pinned[i]) out[i] |= 4;
}

bool World::device_pose(Device device, double t, Pose& out) const {
  const int d = device_index(device);
  if (tracks_[d].sample(t, config_.interaction.extrapolation_horizon, out)) return true;
  out = attach_pose_[d];
  return !device_sets_[d].vertex.empty();
}

uint64_t World::state_hash() const {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](const void* data, size_t bytes) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) { h ^= b[i]; h *= 1099511628211ull; }
  };
  mix(state_.position.data(), state_.position.size() * sizeof(glm::vec3));
  mix(state_.velocity.data(), state_.velocity.size() * sizeof(glm::vec3));
  return h;
}

}  // namespace weft
