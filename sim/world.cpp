#include "sim/world.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "sim/buckled_links.h"
#include "sim/failsafe.h"
#include "sim/freed_relaxation.h"
#include "sim/grasp_saturation.h"
#include "sim/plasticity.h"
#include "sim/release_grip.h"
#include "sim/release_recoil.h"
#include "sim/seam_line.h"
#include "sim/sewn_weld.h"
#include "sim/wall_time.h"
#include "sim/world_stages.h"

namespace weft {
namespace {

// The seams sewn for good projected closed (sim/seam.h close_sewn_seams); nothing without seams.
void close_seams(const WorldModel& model, WorldState& state) {
  if (state.seams.size())
    close_sewn_seams(state.seams, model.cloth.inv_mass.data(), state.cloth.kinematic.data(),
                     state.cloth.position.data(), state.cloth.velocity.data());
}

// How far the seams are from closed, for the step's report.
SeamStats measure_seams(const SeamSet& seams, const glm::vec3* x) {
  SeamStats out;
  out.pairs = uint32_t(seams.size());
  out.gap_max = seam_gap_max(seams, x);
  for (uint8_t s : seams.sewn) out.sewn += s;
  return out;
}

// The links the corrections crushed at a landing or in the flight after a release marked buckled
// (sim/buckled_links.h); none while a device holds the cloth or one of its colliders touches it (a patch sliding
// out after its release is not held). `cpu_contacts`: the CPU collider passes ran (they fill
// scratch.collider_contact, which tells free flight).
void update_buckled_links(const WorldModel& model, WorldState& state, const WorldScratch& scratch, bool has_followers,
                          bool cpu_contacts) {
  const float thickness = model.config.interaction.thickness;
  bool held = false;
  for (int d = 0; d < kDeviceCount; ++d) held = held || (!state.held[d].vertex.empty() && !state.release[d].active);
  held = held || (has_followers && device_touches(state.colliders.data(), state.colliders.size(),
                                                  state.cloth.position.data(), state.cloth.position.size(),
                                                  kPushedReach * thickness));
  if (held) {
    if (state.cloth.any_buckled) std::fill(state.cloth.buckled.begin(), state.cloth.buckled.end(), uint8_t(0));
    state.cloth.any_buckled = false;
    state.flying_since_release = false;
    return;
  }
  // Only in the flight after a release (state.flying_since_release): a folded cloth floating weightless for
  // seconds and never released, its layers in a steady fight with the self-contacts (world_edit_test's cut
  // fold), crumpled with its crushed links buckled (246 links crushed, 9 crossing pairs).
  const bool in_flight = state.flying_since_release && cpu_contacts && state.cloth.contact_filter.empty() &&
                         cloth_in_flight(state.cloth.kinematic.data(), scratch.collider_contact.data(),
                                         state.cloth.position.data(), state.cloth.position.size(), state.boxes.data(),
                                         state.boxes.size(), kPushedReach * thickness);
  // The patch slides out of the grip kinematic (not yet in flight); past that, the first touch ends the flight.
  bool sliding = false;
  for (int d = 0; d < kDeviceCount; ++d) sliding = sliding || state.release[d].active;
  if (!in_flight && !sliding) state.flying_since_release = false;
  state.cloth.any_buckled = mark_buckled_links(model.cloth, state.cloth.position.data(), scratch.solved_length.data(),
                                               kBuckleStrain, state.boxes.data(), state.boxes.size(),
                                               state.colliders.data(), state.colliders.size(), kPushedReach * thickness,
                                               scratch.x_prev.data(), thickness, state.cloth.buckled.data(), in_flight);
}

}  // namespace

World::World(ClothModel model, const WorldConfig& config)
    : model_(make_world_model(std::move(model), config)),
      state_(make_initial_state(model_)),
      integrator_(config.make_custom_integrator ? config.make_custom_integrator(model_.cloth, config.solver)
                                                : make_integrator(config.integrator, model_.cloth, config.solver)) {
  scratch_.resize(model_.cloth);
  set_self_collision(config.self_collision);
  rebuild_pin_tethers();
}
World::~World() = default;  // (editor_ goes first: its worker may read the model until it stops)
// A queued edit's worker may read the model it was given: a world lands them before it moves.
World::World(World&& o) noexcept { *this = std::move(o); }
World& World::operator=(World&& o) noexcept {
  o.land_queued_edits();
  land_queued_edits();
  model_ = std::move(o.model_);
  state_ = std::move(o.state_);
  scratch_ = std::move(o.scratch_);
  integrator_ = std::move(o.integrator_);
  self_collision_ = std::move(o.self_collision_);
  stats_ = std::move(o.stats_);
  running_ = o.running_;
  energy_cached_ = o.energy_cached_;
  has_followers_ = o.has_followers_;
  has_body_ = o.has_body_;
  edits_applied_ = o.edits_applied_;
  edits_refused_ = o.edits_refused_;
  topology_generation_ = o.topology_generation_;
  queued_landed_ = o.queued_landed_;
  queued_applied_ = o.queued_applied_;
  landed_ = o.landed_;
  queued_leaf_order_ = std::move(o.queued_leaf_order_);
  editor_ = std::move(o.editor_);  // idle; its copy of the model is the world's own
  return *this;
}

void World::step() {
  running_ = true;
  const float h = float(time_step());
  // An expand or shrink under way takes its next step first: the fail-safe's baseline sees the rest shape
  // the tick runs with.
  if (rest_ramp_.active()) {
    if (step_rest_ramp(rest_ramp_, model_.cloth, model_.rest_scale)) rest_shape_changed();
    energy_cached_ = false;
  }
  // Patches whose release slide ended (sim/grasp_release.h) let go before the tick.
  for (int d = 0; d < kDeviceCount; ++d)
    if (state_.release[d].active && state_.release[d].ticks_left == 0) free_patch(d);
  const auto t0 = WallClock::now();
  const bool guard = model_.config.failsafe.enabled;
  FailsafeBaseline baseline;
  if (guard) baseline = failsafe_baseline(model_, state_, energy_cached_ ? &stats_.failsafe.energy : nullptr);
  mark_held_vertices();
  move_solids(model_, state_, h);
  note_held_vertices(state_.elastic_held, scratch_.freed);
  apply_elastics(model_, state_, scratch_, h, stats_);
  // What a grip let go this tick: its first solve is finished on the springs (sim/freed_relaxation.h).
  const bool freed = begin_freed_relaxation(model_.cloth, model_.adjacency.offset, model_.adjacency.neighbour,
                                            state_.cloth.kinematic.data(), state_.cloth.velocity.data(), scratch_.freed);
  const auto t1 = WallClock::now();
  // After a release the solve would throw what the grip held; the release window takes it (sim/release_recoil.h).
  const bool recoil = begin_release_recoil(model_, state_, scratch_);
  scratch_.release_recoil_due = recoil;  // the GPU step: its end runs on the CPU, so two submits this tick
  scratch_.solved_state_read = (guard && baseline.passive) || !state_.cloth.buckled.empty();
  integrator_->attach_world(model_, state_, scratch_, stats_);
  integrate(model_, state_, *integrator_, self_collision_.get(), scratch_, h);
  if (freed && !model_.cloth.weft_warp.active())  // the relaxation's energy is the links' (weft/warp: not)
    relax_freed(model_.cloth, scratch_.freed.vertices, scratch_.freed.links, state_.cloth.kinematic.data(),
                &state_.cloth.contact_filter, scratch_.x_prev.data(), scratch_.freed.v_start.data(), h,
                kFreedRelaxationSweeps, state_.cloth.position.data(), state_.cloth.velocity.data());
  // ... and the crease the grip held is not thrown: its friction takes the freed patch's speed (sim/release_grip.h).
  if (freed && !integrator_->runs(PostSolveStage::ReleaseThrow))  // the freed ones lead `vertices`
    take_release_throw(scratch_.freed.vertices, scratch_.freed.freed.size(), scratch_.freed.v_start,
                       state_.cloth.kinematic.data(), &state_.cloth.contact_filter, model_.cloth.material.gravity, h,
                       state_.cloth.velocity.data());
  if (recoil) end_release_recoil(model_, state_, scratch_, h);
  const bool buckle = !state_.cloth.buckled.empty();  // what the corrections crush buckles (sim/buckled_links.h)
  if (buckle) record_solved_lengths(model_.cloth, state_.cloth.position.data(), scratch_.solved_length.data());
  if (guard) failsafe_after_solve(model_, state_, baseline);
  free_seam_driven(model_, state_, scratch_);
  close_seams(model_, state_);  // sewn seams closed again before the contacts, which then act on the closed pair
  if (state_.seams.size() || !scratch_.strain.weld_members.empty())  // the limiter moves a sewn seam as one
    weld_sewn_seams(state_.seams, model_.cloth.inv_mass.data(), state_.cloth.kinematic.data(), scratch_.strain);
  const auto t2 = WallClock::now();
  integrator_->run_post_solve(h);  // what runs() claims (the GPU step's stage 4), where the CPU would run it
  if (integrator_->runs(PostSolveStage::ColliderPasses)) {
    // The integrator ran stage 4 whole (the GPU step) and filled stats_.strain and .collision.
    stats_.timing.strain_ms = ms_between(t2, WallClock::now());
    stats_.timing.collision_ms = 0;
  } else {
    resolve_contacts(model_, state_, scratch_, h, stats_);
  }
  stats_.timing.self_collision_ms = 0;
  // (The GPU step runs stage 5 itself when it claims it, in run_post_solve after its stage 4.)
  if (self_collision_ && !integrator_->runs(PostSolveStage::SelfContacts))
    resolve_self_contacts(model_, state_, *self_collision_, scratch_, h, stats_);
  resolve_driven_contacts(model_, state_, scratch_, h);
  release_seam_slip(state_, scratch_);  // after every contact pass: the seams' vertices slid free of friction
  close_seams(model_, state_);  // and after them, so that what the tick publishes has them closed
  if (buckle)
    update_buckled_links(model_, state_, scratch_, has_followers_, !integrator_->runs(PostSolveStage::ColliderPasses));
  if (!integrator_->runs(PostSolveStage::Plasticity))  // the GPU step runs it at the head of its next submit
    update_plasticity(model_.cloth, state_.cloth, h);  // weave creases and set (no-op unless the material has plasticity)
  if (guard) apply_failsafe(model_, model_.config.failsafe, baseline, h, state_, stats_.failsafe);
  energy_cached_ = guard && stats_.failsafe.energy_known;
  stats_.body_penetration_m = has_body_ ? body_penetration(state_.colliders.data(), state_.colliders.size(),
                                                           model_.cloth.inv_mass.data(), state_.cloth.position.data(),
                                                           model_.cloth.vertex_count(),
                                                           scratch_.held_by_live ? scratch_.held_by.data() : nullptr,
                                                           scratch_.holding)
                                        : 0.f;
  const auto t3 = WallClock::now();
  stats_.timing.elastic_ms = ms_between(t0, t1);
  stats_.timing.integrator_ms = ms_between(t1, t2);
  stats_.timing.correction_ms = ms_between(t2, t3);
  stats_.timing.total_ms = ms_between(t0, t3);
  stats_.seams = measure_seams(state_.seams, state_.cloth.position.data());
  // Queued edits due at this step land last, so the state published after it has the new cloth.
  if (editor_) land_due_edits(false);
}

int World::rest_ramp_ticks() const {
  return std::max(1, int(std::lround(kRestRampSeconds * model_.config.tick_hz)));
}

void World::rest_shape_changed() {
  model_.flat_pieces = find_flat_pieces(model_.cloth, model_.adjacency);
  for (int d = 0; d < kDeviceCount; ++d)
    if (!state_.held[d].vertex.empty()) rebuild_tethers(d);
  rebuild_pin_tethers();
  energy_cached_ = false;
}

void World::mark_held_vertices() {
  scratch_.held_by_live = has_followers_;
  if (!has_followers_) return;
  std::memset(scratch_.held_by.data(), 0, scratch_.held_by.size());
  scratch_.holding = 0;
  for (int d = 0; d < kDeviceCount; ++d) {
    for (uint32_t i : state_.held[d].vertex) scratch_.held_by[i] |= uint8_t(1u << d);
    if (!state_.held[d].vertex.empty()) scratch_.holding |= uint8_t(1u << d);
  }
}

void World::reset() {
  land_queued_edits();  // edits stay across a reset (below): the queued ones too
  // The cloth, the rigid world and the devices' tracks back to time 0, in place: the per-device buffers
  // keep their capacity (grabs after a reset must not allocate on the sim thread).
  // Edits stay: a scaling under way is done.
  if (finish_rest_ramp(rest_ramp_, model_.cloth, model_.rest_scale)) rest_shape_changed();
  state_.cloth = make_start_state(model_.cloth);
  for (int d = 0; d < kDeviceCount; ++d) {
    state_.tracks[d].clear();
    state_.safe[d] = SafeTarget{};
  }
  for (Hand hand : {Hand::Left, Hand::Right}) {
    const int d = device_index(hand_device(hand));
    state_.held[d].clear();
    state_.tethers[d].active = false;
  }
  state_.release.fill(GraspRelease{});
  state_.flying_since_release = false;
  state_.elastic_held.clear();
  state_.seam_driven.clear();
  scratch_.elastic.clear();
  state_.colliders = model_.colliders;
  state_.boxes = model_.boxes;
  state_.seams = model_.seams;  // the scene's, open again
  seams_changed();
  if (self_collision_) {
    self_collision_->request_tangle_scan();  // the state jumped
    self_collision_->rearm_cut_twins();      // back at rest, a cut's lips lie on each other again
  }
  energy_cached_ = false;
}

// --- assembly

void World::assembling(const char* what) const {
  if (running_)
    throw std::logic_error(std::string("World::") + what + " after the first step: the world's model is fixed once it runs");
}

void World::set_self_collision(const SelfCollisionConfig& config) {
  assembling("set_self_collision");
  model_.config.self_collision = config;
  if (!config.enabled) {
    self_collision_.reset();
    return;
  }
  if (self_collision_) {
    self_collision_->set_config(config);
  } else {
    self_collision_ = std::make_unique<SelfCollision>(model_.cloth, config);
    // Triangles that already cross (a tangled mesh): found now, so the caller can warn at load.
    self_collision_->scan_tangles(model_.cloth, state_.cloth.position.data());
  }
  seams_changed();
}

size_t World::add_overlapping_pairs(const std::vector<std::array<uint32_t, 2>>& pairs) {
  assembling("add_overlapping_pairs");
  if (!self_collision_) return 0;
  const size_t taken = self_collision_->add_overlapping_pairs(model_.cloth, state_.cloth.position.data(), pairs);
  if (taken > 0) open_loaded_overlaps();
  return taken;
}

void World::add_pin(uint32_t vertex, const glm::vec3& target) {
  assembling("add_pin");
  if (vertex < model_.is_fixed.size() && !model_.is_fixed[vertex]) {
    model_.is_fixed[vertex] = 1;
    model_.fixed.push_back(vertex);
  }
  model_.pins.vertex.push_back(vertex);
  model_.pins.offset.push_back(target);
  model_.pins.weight.push_back(1.f);
  rebuild_pin_tethers();
}

void World::add_seam(uint32_t a, uint32_t b) { add_seam(a, b, b, 0.f); }

void World::add_seam(uint32_t a, uint32_t b, uint32_t c, float w) {
  assembling("add_seam");
  model_.seams.add(a, b, c, w);
  state_.seams.add(a, b, c, w);
  seams_changed();
}

SewReport World::sew(const glm::vec3& a_from, const glm::vec3& a_to, const glm::vec3& b_from, const glm::vec3& b_to) {
  SewReport r;
  auto refuse = [&](const char* why) {
    r.refused = why;
    ++state_.refused_sews;
    return r;
  };
  for (const glm::vec3& p : {a_from, a_to, b_from, b_to})
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return refuse("a point is not finite");
  const ClothModel& m = model_.cloth;
  const glm::vec3* x = state_.cloth.position.data();
  const size_t n = m.vertex_count();
  // the ends where the cloth is now (what the user points at); the runs' lengths at rest (the fabric's)
  const uint32_t ends[4] = {nearest_border_vertex(m.topology, x, n, a_from), nearest_border_vertex(m.topology, x, n, a_to),
                            nearest_border_vertex(m.topology, x, n, b_from), nearest_border_vertex(m.topology, x, n, b_to)};
  if (ends[0] == UINT32_MAX) return refuse("the cloth has no border");
  const char* why = nullptr;
  std::vector<uint32_t> run_a = border_run(m.topology, m.rest_position.data(), ends[0], ends[1], &why);
  if (run_a.empty()) return refuse(why);
  std::vector<uint32_t> run_b = border_run(m.topology, m.rest_position.data(), ends[2], ends[3], &why);
  if (run_b.empty()) return refuse(why);
  // A run much longer than the other is clipped from its far end: the cloth cannot gather it (seam_line.h).
  const float la = run_length(run_a, m.rest_position.data()), lb = run_length(run_b, m.rest_position.data());
  if (la > kMaxSeamGather * lb) r.clipped_m = clip_run(run_a, m.rest_position.data(), kMaxSeamGather * lb);
  else if (lb > kMaxSeamGather * la) r.clipped_m = clip_run(run_b, m.rest_position.data(), kMaxSeamGather * la);
  // The lips of a cut (one line at rest) are sewn back where they were; other runs by arc length.
  const float tolerance = 0.25f * std::min(la, lb) / float(std::max(run_a.size(), run_b.size()));
  r.pairs = pair_runs_at_rest(run_a, run_b, m.rest_position.data(), tolerance, state_.seams);
  if (r.pairs == 0) r.pairs = pair_runs(run_a, run_b, m.rest_position.data(), state_.seams);
  if (r.pairs == 0) return refuse("the two runs are one");
  if (r.clipped_m > 0.f) ++state_.clipped_sews;
  seams_changed();
  return r;
}

void World::seams_changed() {
  if (self_collision_) self_collision_->set_seams(model_.cloth, state_.seams);
  if (state_.seams.size())
    piece_masses(model_.cloth.vertex_count(), model_.cloth.topology.edges, model_.cloth.mass.data(),
                 model_.cloth.pinned.data(), scratch_.piece_mass);
  else
    scratch_.piece_mass.clear();
}

size_t World::add_collider(const Collider& collider) {
  assembling("add_collider");
  model_.colliders.push_back(collider);
  model_.colliders.back().previous_pose = collider.pose;
  state_.colliders.push_back(model_.colliders.back());
  scratch_.solids.reserve(model_.colliders.size() + model_.boxes.size());
  has_followers_ = has_followers_ || collider.follows.has_value();
  has_body_ = has_body_ || collider.body;
  return model_.colliders.size() - 1;
}

size_t World::add_rigid_box(const RigidBox& box) {
  assembling("add_rigid_box");
  model_.boxes.push_back(box);
  model_.boxes.back().previous_pose = box.pose;
  state_.boxes.push_back(model_.boxes.back());
  scratch_.solids.reserve(model_.colliders.size() + model_.boxes.size());
  scratch_.box_moved.reserve(model_.boxes.size());
  scratch_.box_step.reserve(model_.boxes.size());
  return model_.boxes.size() - 1;
}

// --- inputs

bool World::submit_pose(const PoseSample& sample) {
  const int d = device_index(sample.device);
  PoseRejection why = (d >= 0 && d < kDeviceCount) ? state_.tracks[d].push(sample) : PoseRejection::Flagged;
  if (why == PoseRejection::Accepted) return true;
  ++state_.invalid_poses;
  ++state_.rejected[size_t(why)];
  return false;
}

size_t World::grab(Hand hand, const Pose& pose, float radius) { return attach_near(hand_device(hand), pose, radius); }

void World::release(Hand hand) { detach(hand_device(hand)); }

void World::rebuild_tethers(int d) {
  // anchors: the fully held vertices (weight 1: kinematic while held)
  const ElasticSet& set = state_.held[d];
  auto& sources = scratch_.tether.sources;
  sources.clear();
  for (size_t k = 0; k < set.size(); ++k)
    if (set.weight[k] >= 1.f) sources.push_back(set.vertex[k]);
  tethers_from_sources(state_.tethers[d]);
}

void World::rebuild_pin_tethers() {
  // Pins are grasp points that never move: the scene's pinned vertices and the elastic pins.
  auto& sources = scratch_.tether.sources;
  sources.clear();
  for (uint32_t i = 0; i < model_.cloth.vertex_count(); ++i)
    if (model_.cloth.pinned[i]) sources.push_back(i);
  for (uint32_t i : model_.pins.vertex)
    if (i < model_.cloth.vertex_count() && !model_.cloth.pinned[i]) sources.push_back(i);
  tethers_from_sources(model_.pin_tethers);
}

void World::tethers_from_sources(Tethers& out) {
  const auto& sources = scratch_.tether.sources;
  if (sources.empty()) {
    out.active = false;
    return;
  }
  build_tethers(model_.cloth, model_.adjacency, sources.data(), sources.size(), scratch_.tether, out);
  if (model_.config.interaction.straight_tethers) straighten_tethers(model_.cloth, model_.flat_pieces, out);
}

size_t World::attach(Device device, const std::vector<uint32_t>& vertices, const Pose& pose) {
  const int d = device_index(device);
  ElasticSet& set = state_.held[d];
  set.clear();
  state_.release[d] = GraspRelease{};  // a release under way ends: the device holds anew
  state_.attach_pose[d] = pose;
  for (uint32_t i : vertices) {
    if (i >= model_.cloth.vertex_count()) continue;
    set.vertex.push_back(i);
    set.offset.push_back(pose.inverse_transform_point(state_.cloth.position[i]));
    set.weight.push_back(1.f);
  }
  rebuild_tethers(d);
  if (!set.vertex.empty()) reanchor_safe_target(state_.safe[d], pose, float(time_step()), model_.config.interaction.safety);
  return set.size();
}

size_t World::attach_near(Device device, const Pose& pose, float radius) {
  const int d = device_index(device);
  const ClothState& c = state_.cloth;
  PoseSample s;
  s.time = c.time;
  s.pose = pose;
  if (check_pose_sample(s) != PoseRejection::Accepted || !(radius >= 0.f) || !std::isfinite(radius)) {
    ++state_.invalid_poses;
    return 0;
  }
  state_.attach_pose[d] = pose;
  state_.release[d] = GraspRelease{};  // a release under way ends: the device holds anew
  // Hysteresis: a hand that was within the catch radius over the last hysteresis_s still catches from a
  // band beyond it (the device's recent tracked samples; an event, so the O(n) distances are affordable).
  const GraspParams& gp = model_.config.interaction.grasp;
  const size_t n = model_.cloth.vertex_count();
  float extra = 0.f;
  const float reach = catch_radius(radius, gp);
  const PoseTrack& track = state_.tracks[d];
  for (int k = track.size() - 1; k >= 0 && extra == 0.f; --k) {
    const PoseSample& past = track.sample_at(k);
    if (past.time < c.time - gp.hysteresis_s) break;
    if (nearest_distance(c.position.data(), n, past.pose.position) <= reach) extra = gp.hysteresis_band;
  }
  // The hand's own palm keeps the cloth at its surface, the contact thickness out (sim/hand_colliders.h): the
  // catch radius is measured from there, not from the grip inside it. From the grip, a palm coming onto
  // hanging.json's corners pushed them past the catch radius and both grabs missed.
  float inside = 0.f;
  for (const Collider& col : state_.colliders) {
    glm::vec3 normal;
    if (col.follows == device && !col.parked)
      inside = std::max(inside, -collider_distance(col, pose.position, normal));
  }
  if (inside > 0.f) extra += inside + model_.config.interaction.thickness;
  const size_t held = select_grasp(model_.cloth, model_.adjacency, c.position.data(), pose, radius, gp, scratch_.grasp,
                                   state_.held[d], model_.is_fixed.data(), extra);
  rebuild_tethers(d);
  // The patch's offsets are in the grab pose's frame: its targets must start there, not where a limiter
  // still walking from an old or far sample is.
  if (held > 0) reanchor_safe_target(state_.safe[d], pose, float(time_step()), model_.config.interaction.safety);
  return held;
}

void World::detach(Device device) {
  const int d = device_index(device);
  GraspRelease& r = state_.release[d];
  if (r.active || state_.held[d].vertex.empty()) return;
  const InteractionConfig& ic = model_.config.interaction;
  // The patch's frame goes on with the hand's velocity as the safety layer measured it (smoothed: not a
  // tick's jitter, nor the catch-up of a patch the saturation held back), else with the held core's mean.
  const ClothState& c = state_.cloth;
  glm::vec3 velocity(0.f);
  if (ic.safety.enabled && state_.safe[d].valid) {
    velocity = state_.safe[d].smoothed_velocity;
  } else {
    uint32_t count = 0;
    for (size_t k = 0; k < state_.held[d].size(); ++k)
      if (held_core(state_.held[d], k, c.kinematic.data(), model_.is_fixed.data())) {
        velocity += c.velocity[state_.held[d].vertex[k]];
        ++count;
      }
    if (count) velocity /= float(count);
  }
  r.velocity = velocity;
  r.pose = state_.attach_pose[d];
  Pose now;
  if (weft::device_pose(model_, state_, device, c.time, now)) r.pose = now;
  if (ic.safety.enabled && state_.safe[d].valid) r.pose = state_.safe[d].pose;
  // ... moved to where the patch is: one the saturation held back from the hand is not pulled after it.
  glm::vec3 lag(0.f);
  uint32_t core = 0;
  const ElasticSet& set = state_.held[d];
  for (size_t k = 0; k < set.size(); ++k)
    if (held_core(set, k, c.kinematic.data(), model_.is_fixed.data())) {
      lag += c.position[set.vertex[k]] - r.pose.transform_point(set.offset[k]);
      ++core;
    }
  if (core) r.pose.position += lag / float(core);
  const float stretch = stored_stretch(d, state_.held, state_.tethers, model_.fixed, model_.is_fixed.data(),
                                       c.position.data(), c.kinematic.data());
  r.ticks_left = stretch > ic.release_stretch ? uint32_t(std::lround(double(ic.release_time) * model_.config.tick_hz)) : 0;
  r.active = true;
  open_release_recoil(model_, state_);
  if (r.ticks_left == 0) free_patch(d);
  energy_cached_ = false;
}

void World::free_patch(int d) {
  // The held vertices keep no more speed than the patch's frame had: whatever the elastics stored (a
  // patch lagging a fast hand, a stretch the slide did not relax) is not thrown with the cloth.
  const InteractionConfig& ic = model_.config.interaction;
  const float bound = ic.release_speed_factor * glm::length(state_.release[d].velocity) + ic.release_speed_slack;
  for (uint32_t i : state_.held[d].vertex) state_.cloth.velocity[i] = cap_speed(state_.cloth.velocity[i], bound);
  state_.held[d].clear();
  state_.tethers[d].active = false;
  state_.release[d] = GraspRelease{};
  open_release_recoil(model_, state_);
  state_.flying_since_release = true;
  energy_cached_ = false;
}

void World::add_velocity(const glm::vec3& dv, uint32_t first, uint32_t count) {
  std::vector<glm::vec3>& v = state_.cloth.velocity;
  const size_t end = first + std::min<size_t>(count, v.size());
  for (size_t i = first; i < std::min(end, v.size()); ++i) v[i] += dv;
  energy_cached_ = false;
}

void World::move_collider(size_t index, const Pose& pose) {
  if (index < state_.colliders.size()) state_.colliders[index].pose = pose;
}

// --- access

void World::grasp_mask(uint8_t* out) const {
  std::memset(out, 0, model_.cloth.vertex_count());
  for (int d = 0; d < kDeviceCount; ++d) {
    const uint8_t bit = d == 0 ? 1 : d == 1 ? 2 : 4;
    for (uint32_t i : state_.held[d].vertex) out[i] |= bit;
  }
  for (uint32_t i : model_.pins.vertex) out[i] |= 4;
  for (size_t i = 0; i < model_.cloth.vertex_count(); ++i)
    if (model_.cloth.pinned[i]) out[i] |= 4;
}

bool World::device_pose(Device device, double t, Pose& out) const {
  return weft::device_pose(model_, state_, device, t, out);
}

uint64_t World::state_hash() const {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](const void* data, size_t bytes) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) { h ^= b[i]; h *= 1099511628211ull; }
  };
  mix(state_.cloth.position.data(), state_.cloth.position.size() * sizeof(glm::vec3));
  mix(state_.cloth.velocity.data(), state_.cloth.velocity.size() * sizeof(glm::vec3));
  return h;
}

}  // namespace weft
