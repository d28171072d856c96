#include "engine/sim_thread.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "engine/snapshot_builder.h"

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace weft {

namespace {

using Clock = std::chrono::steady_clock;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// Where the device is (its last applied pose); whether it holds cloth is the world's (fill_snapshot).
void fill_gizmo(DeviceGizmo& g, bool seen, const PoseSample& s) {
  g.active = seen && s.valid;
  g.position = s.pose.position;
  g.orientation = s.pose.orientation;
}

// Asks for the scheduling class on the calling thread; returns the one it has afterwards.
SimPriority apply_priority(SimPriority wanted) {
#ifdef __linux__
  if (wanted == SimPriority::Realtime) {
    sched_param p{};
    p.sched_priority = 10;
    if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &p) == 0) return SimPriority::Realtime;
    wanted = SimPriority::High;  // not permitted: try the next best
  }
  if (wanted == SimPriority::High && setpriority(PRIO_PROCESS, id_t(gettid()), -10) == 0) return SimPriority::High;
#endif
  (void)wanted;
  return SimPriority::Normal;
}

}  // namespace

const char* sim_priority_name(SimPriority p) {
  switch (p) {
    case SimPriority::Normal: return "normal";
    case SimPriority::High: return "high";
    case SimPriority::Realtime: return "realtime";
  }
  return "?";
}

SimThread::SimThread(World world, const SimThreadConfig& config)
    : world_(std::move(world)), config_(config), mesh_(make_snapshot_mesh(world_.model())),
      events_(config.event_capacity), conditioner_(config.conditioning) {
  if (!(config.tick_hz >= 60 && config.tick_hz <= 2000))
    throw std::invalid_argument("tick rate " + std::to_string(config.tick_hz) + " Hz is outside 60 to 2000 Hz");
  if (std::abs(world_.time_step() * config.tick_hz - 1.0) > 1e-9)
    throw std::invalid_argument("sim thread tick rate differs from the world's (WorldConfig::tick_hz)");
  if (config.max_catch_up == 0) throw std::invalid_argument("max_catch_up must be at least 1");
  if (config.free_wheel && !config.lockstep) throw std::invalid_argument("free_wheel needs lockstep");
  if (config.input_log_capacity > 0) input_log_ = std::make_unique<SpscQueue<StreamRecord>>(config.input_log_capacity);
  // Every slot reserves the mesh's capacities (engine/snapshot.h): an edit within them allocates nothing here.
  const size_t n = world_.model().vertex_count();
  snapshots_.for_each_slot([this, n](ClothSnapshot& s) {
    s.reserve(mesh_);
    s.resize(n);
  });
}

SimThread::~SimThread() { stop(); }

void SimThread::start() {
  if (thread_.joinable()) return;
  stop_.store(false, std::memory_order_relaxed);
  clock_zero_ns_.store(now_ns() - int64_t(std::llround(double(tick_) * 1e9 / config_.tick_hz)),
                       std::memory_order_relaxed);
  // The state the thread starts from is published before it runs: a reader never starts empty-handed.
  if (published_tick_.load(std::memory_order_relaxed) != tick_ || snapshots_.published() == 0) publish_snapshot();
  started_.store(true, std::memory_order_release);
  thread_ = std::thread([this] { config_.free_wheel ? loop_free_wheel() : loop(); });
}

void SimThread::stop() {
  if (!thread_.joinable()) return;
  stop_.store(true, std::memory_order_release);
  wake_.fetch_add(1, std::memory_order_release);
  wake_.notify_one();
  thread_.join();
  started_.store(false, std::memory_order_release);
  publish_seq_.fetch_add(1, std::memory_order_release);  // wake anyone waiting for ticks that will not come
  publish_seq_.notify_all();
}

uint64_t SimThread::wait_published(uint64_t tick) const {
  for (;;) {
    const uint32_t seq = publish_seq_.load(std::memory_order_acquire);
    if (published_tick_.load(std::memory_order_acquire) >= tick || !started_.load(std::memory_order_acquire) ||
        stop_.load(std::memory_order_acquire))
      return ticks();
    publish_seq_.wait(seq, std::memory_order_acquire);
  }
}

double SimThread::clock_now() const {
  const double scheduled = double(now_ns() - clock_zero_ns_.load(std::memory_order_relaxed)) * 1e-9;
  // Never ahead of the next tick the sim will run: a sim slower than real time (it skips ticks) stays in
  // step with its inputs, which then apply at its next tick instead of queueing for ticks it may reach
  // only much later.
  return std::min(scheduled, double(ticks() + 1) / config_.tick_hz);
}

uint64_t SimThread::run_ticks(uint64_t n) {
  if (thread_.joinable()) throw std::logic_error("run_ticks while the sim thread runs");
  uint64_t done = 0;
  for (; done < n; ++done) {
    if (!tick_once()) break;
    publish_snapshot();
  }
  return done;
}

void SimThread::loop() {
#ifdef __linux__
  prctl(PR_SET_TIMERSLACK, 1UL);  // wake within ~1 ns of the deadline instead of the default 50 us
#endif
  counters_.priority = uint8_t(apply_priority(config_.priority));
  const auto period_ns = int64_t(std::llround(1e9 / config_.tick_hz));
  TickScheduler schedule(period_ns, config_.max_catch_up);
  auto rebase = [&] {
    const int64_t now = now_ns();
    schedule.rebase(now);
    clock_zero_ns_.store(now - int64_t(tick_) * period_ns, std::memory_order_relaxed);
  };
  rebase();
  bool was_paused = false;
  while (!stop_.load(std::memory_order_relaxed)) {
    if (paused_.load(std::memory_order_relaxed)) {
      was_paused = true;
      clock_zero_ns_.store(now_ns() - int64_t(tick_) * period_ns, std::memory_order_relaxed);  // clock frozen
      if (step_requests_.load(std::memory_order_relaxed) > 0) {
        step_requests_.fetch_sub(1, std::memory_order_relaxed);
        if (tick_once()) publish_snapshot();
      }
      std::this_thread::sleep_for(std::chrono::nanoseconds(period_ns));
      continue;
    }
    if (was_paused) {  // paused time is neither late nor skipped: restart the schedule now
      rebase();
      step_requests_.store(0, std::memory_order_relaxed);  // single steps count only while paused
      was_paused = false;
    }
    const int64_t wake = now_ns();
    const TickScheduler::Wake w = schedule.on_wake(wake);
    counters_.skipped_ticks += w.skipped;
    // Skipped ticks are wall time the sim did not simulate: the runtime clock moves on without them, so
    // live samples keep landing on the ticks that do run.
    if (w.skipped > 0)
      clock_zero_ns_.fetch_add(int64_t(w.skipped) * period_ns, std::memory_order_relaxed);
    uint64_t ran = 0;
    for (uint64_t j = 0; j < w.run; ++j) {
      const int64_t start = j == 0 ? wake : now_ns();
      if (!tick_once()) {
        ++counters_.input_stalls;
        break;
      }
      const int64_t late = start - (w.first_deadline_ns + int64_t(j) * period_ns);
      lateness_hist_.record(late > 0 ? double(late) * 1e-6 : 0.0);
      ++ran;
    }
    if (ran > 0) {
      ++counters_.wakes;
      publish_snapshot();  // once per wake: catch-up ticks in between are never drawn
    }
    std::this_thread::sleep_until(Clock::time_point(std::chrono::nanoseconds(schedule.next_deadline_ns())));
  }
}

void SimThread::loop_free_wheel() {
  counters_.priority = uint8_t(apply_priority(config_.priority));
  uint64_t since_publish = 0;
  while (!stop_.load(std::memory_order_relaxed)) {
    const uint32_t seen = wake_.load(std::memory_order_acquire);
    if (tick_once()) {
      // Publish at least every 16 ticks, and always before waiting: a reader waiting for tick N then
      // finds exactly the snapshot of tick N.
      if (++since_publish >= 16) publish_snapshot(), since_publish = 0;
      continue;
    }
    if (since_publish > 0 || published_tick_.load(std::memory_order_relaxed) != tick_)
      publish_snapshot(), since_publish = 0;
    ++counters_.input_stalls;
    wake_.wait(seen, std::memory_order_acquire);  // until set_input_horizon or stop
  }
}

void SimThread::log_input(const StreamRecord& r) {
  if (input_log_ && !input_log_->push(r)) ++counters_.input_log_dropped;
}

void SimThread::apply_pose(Device d, const PoseSample& raw) {
  if (input_log_) {
    StreamRecord r;
    r.tick = tick_;
    r.sample = raw;
    log_input(r);
  }
  PoseSample s = raw;
  if (config_.condition_poses && conditioner_.condition(s) != ConditionVerdict::Accepted) {
    ++counters_.poses_conditioned_out;
    return;
  }
  if (!world_.submit_pose(s)) return;  // rejected and counted by the world
  last_pose_[size_t(d)] = s;
  pose_seen_[size_t(d)] = true;
}

bool SimThread::tick_once() {
  if (config_.lockstep && horizon_.load(std::memory_order_acquire) <= tick_) return false;

  // Inputs due at this boundary: poses first (by device, oldest first), then events in queue order. Device
  // resets at the front of the queue go before the poses: they mark where a device's new source begins.
  // (1 ns of slack: a sample stamped with a tick's own time, computed another way, belongs to that tick)
  const double boundary_time = double(tick_) / config_.tick_hz + 1e-9;
  while (const SimEvent* e = events_.front()) {
    if (e->kind != SimEventKind::ResetDevice || e->tick > tick_) break;
    if (e->tick < tick_) ++counters_.events_late;
    conditioner_.reset(e->device);
    ++counters_.events_applied;
    events_.pop();
  }
  for (int d = 0; d < kDeviceCount; ++d)
    counters_.poses_applied +=
        poses_.consume(Device(d), boundary_time, [&](const PoseSample& s) { apply_pose(Device(d), s); });
  while (const SimEvent* e = events_.front()) {
    if (e->tick > tick_) break;
    if (e->tick < tick_) ++counters_.events_late;
    const bool tool = e->kind == SimEventKind::Edit || e->kind == SimEventKind::Sew;
    const auto te = Clock::now();
    const size_t verts = world_.model().vertex_count(), tris = world_.model().triangle_count();
    const EventResult r = apply_event(world_, *e, config_.parameter_hook);
    if (tool) counters_.edit_ms_max = std::max(counters_.edit_ms_max, ms_between(te, Clock::now()));
    // A new topology for the snapshots: an edit that says so, or any change of the counts (a reset that
    // restores the loaded mesh, a seam welded shut), or queued edits the event landed (a reset, a scaling).
    if (r.topology_changed || world_.model().vertex_count() != verts || world_.model().triangle_count() != tris ||
        world_.topology_generation() != world_topology_seen_) {
      world_topology_seen_ = world_.topology_generation();
      ++topology_generation_;
      ++counters_.topology_changes;
    }
    count_landed_edits();
    StreamRecord rec;
    rec.tick = tick_;
    rec.sample.device = hand_device(e->hand);
    switch (e->kind) {
      case SimEventKind::Grab:
        ++(r.grabbed > 0 ? counters_.grabs : counters_.grab_misses);
        if (r.grabbed > 0) {  // how big the held patch is: a one-vertex hold drags the cloth into a strand
          counters_.held_vertices_min =
              counters_.held_vertices_min == 0 ? r.grabbed : std::min<uint64_t>(counters_.held_vertices_min, r.grabbed);
          counters_.held_vertices_max = std::max<uint64_t>(counters_.held_vertices_max, r.grabbed);
        }
        rec.kind = StreamRecordKind::Grab;
        rec.sample.pose = e->pose;
        rec.radius = e->radius;
        log_input(rec);
        break;
      case SimEventKind::Release:
        ++counters_.releases;
        rec.kind = StreamRecordKind::Release;
        log_input(rec);
        break;
      case SimEventKind::Reset:
        conditioner_.reset();
        rec.kind = StreamRecordKind::Reset;
        log_input(rec);
        break;
      case SimEventKind::Attach:
        ++(r.grabbed > 0 ? counters_.attaches : counters_.grab_misses);
        rec.kind = StreamRecordKind::Attach;
        rec.sample.device = e->device;
        rec.sample.pose = e->pose;
        rec.radius = e->radius;
        log_input(rec);
        break;
      case SimEventKind::Detach:
        rec.kind = StreamRecordKind::Detach;
        rec.sample.device = e->device;
        log_input(rec);
        break;
      case SimEventKind::ResetDevice:  // behind other events; not recorded (only XR sends it, and XR does not record)
        conditioner_.reset(e->device);
        break;
      case SimEventKind::SetParameter: break;  // runtime tuning, not part of a recording
      case SimEventKind::Edit:
      case SimEventKind::Sew: {
        const bool sew = e->kind == SimEventKind::Sew;
        // A queued edit counts when it lands (count_landed_edits), the others now.
        if (!r.queued)
          ++(sew ? (r.applied ? counters_.sews_applied : counters_.sews_refused)
                 : (r.applied ? counters_.edits_applied : counters_.edits_refused));
        if (!r.applied) note_refusal(sew ? "sew" : tool_action_name(e->tool.kind), r.refused);
        if (sew) counters_.sews_clipped = world_.clipped_sew_count();
        rec.kind = sew ? StreamRecordKind::Sew : StreamRecordKind::Edit;
        rec.tool = e->tool;
        log_input(rec);  // refused ones too: the replay must refuse them at the same tick
        break;
      }
    }
    // A refused tool is applied as an event (it reached the world); only an unknown parameter is unhandled.
    ++(r.applied || tool ? counters_.events_applied : counters_.events_unhandled);
    events_.pop();
  }

  const auto t0 = Clock::now();
  const size_t verts = world_.model().vertex_count(), tris = world_.model().triangle_count();
  world_.step();
  step_hist_.record(ms_between(t0, Clock::now()));
  // Queued edits land at the end of a step (World::queue_edit): a new topology for the snapshots.
  if (world_.topology_generation() != world_topology_seen_ || world_.model().vertex_count() != verts ||
      world_.model().triangle_count() != tris) {
    world_topology_seen_ = world_.topology_generation();
    ++topology_generation_;
    ++counters_.topology_changes;
  }
  count_landed_edits();
  meter_.observe(world_.model(), world_.state());
  const FailsafeStats& guard = world_.failsafe_stats();
  counters_.speed_clamps += guard.speed_clamps;
  counters_.energy_clamps += guard.energy_clamps;
  if ((guard.speed_clamps || guard.energy_clamps) && counters_.failsafe_first_tick == 0)
    counters_.failsafe_first_tick = tick_ + 1;
  const GraspStats& grasp = world_.step_report().grasp;
  counters_.grasp_saturated += grasp.saturated;
  counters_.grasp_sliding += grasp.sliding;
  counters_.has_body = world_.has_body();
  const double depth = world_.step_report().body_penetration_m;
  counters_.body_penetration_end_m = depth;
  counters_.body_penetration_max_m = std::max(counters_.body_penetration_max_m, depth);
  const SeamStats& seams = world_.step_report().seams;
  counters_.seam_pairs = seams.pairs;
  counters_.seams_sewn = seams.sewn;
  counters_.seam_gap_end = seams.gap_max;
  counters_.seam_gap_worst = std::max(counters_.seam_gap_worst, double(seams.gap_max));
  if (seams.pairs > 0 && seams.sewn == seams.pairs) {
    if (counters_.seams_sewn_tick == 0) counters_.seams_sewn_tick = tick_ + 1;
    counters_.seam_gap_worst_sewn = std::max(counters_.seam_gap_worst_sewn, double(seams.gap_max));
  }
  if (const SelfCollision* sc = world_.self_collision()) {
    const SelfCollisionStats& st = sc->stats();
    counters_.self_contacts_max = std::max(counters_.self_contacts_max, st.vertex_triangle + st.edge_edge);
    counters_.self_zones_max = std::max(counters_.self_zones_max, st.zones);
    counters_.self_contacts_sum += st.vertex_triangle + st.edge_edge;
    counters_.self_largest_zone_max = std::max(counters_.self_largest_zone_max, st.largest_zone);
    counters_.self_intersecting_max = std::max(counters_.self_intersecting_max, st.intersecting_pairs);
    counters_.self_intersecting_end = st.intersecting_pairs;
    counters_.self_tangled_at_scan = sc->tangled_at_scan();
    counters_.self_tangled_later = sc->tangled_at_rescans();
    counters_.self_untangle_moves += st.untangled_vertices;
    counters_.self_capped_ticks += (st.pairs_capped + st.zones_capped + st.dropped) > 0 ? 1 : 0;
    self_hist_.record(world_.last_timing().self_collision_ms);
  }
  if (config_.debug_tick_sleep_ms > 0)
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(config_.debug_tick_sleep_ms));
  ++tick_;
  ++counters_.ticks;
  ticks_done_.store(tick_, std::memory_order_release);
  if (config_.tick_hook.after_tick) config_.tick_hook.after_tick(tick_, config_.tick_hook.context);
  if (config_.tick_hook.observe) config_.tick_hook.observe(world_, tick_, config_.tick_hook.observe_context);
  return true;
}

void SimThread::publish_snapshot() {
  const auto t0 = Clock::now();
  ClothSnapshot& s = snapshots_.write_buffer();
  fill_snapshot(world_, s);
  // The topology goes into a slot only when it changed since that slot last carried it (each of the three
  // slots catches up once per edit); within the reserved capacities this copies without allocating. Beyond
  // them the vectors grow here, in the slot only this thread writes: the reader never sees it happen.
  if (s.topology.generation != topology_generation_) {
    s.topology.generation = topology_generation_;
    s.topology.triangles = world_.model().triangle;
    s.topology.material = world_.model().material_coord;
    s.topology.material.resize(s.position.size(), glm::vec2(0.f));
  }
  s.tick = tick_;  // the runtime clock, monotonic across resets (the world's restarts)
  s.sim_time = double(tick_) / config_.tick_hz;
  for (size_t h = 0; h < 2; ++h) fill_gizmo(s.hands[h], pose_seen_[h], last_pose_[h]);
  for (size_t k = 0; k < s.trackers.size(); ++k) fill_gizmo(s.trackers[k], pose_seen_[2 + k], last_pose_[2 + k]);
  s.stats = stats();
  snapshots_.publish();
  publish_hist_.record(ms_between(t0, Clock::now()));
  published_tick_.store(tick_, std::memory_order_release);
  publish_seq_.fetch_add(1, std::memory_order_release);
  publish_seq_.notify_all();
}

void SimThread::count_landed_edits() {
  // The world counts queued edits as they land; its last report has a refusal's reason and the landing's
  // cost on this thread (several landing at once, by a reset: the last one's).
  const uint64_t landed = world_.queued_edits_landed();
  if (landed == queued_edits_seen_) return;
  const uint64_t applied = world_.queued_edits_applied();
  counters_.edits_applied += applied - queued_applied_seen_;
  counters_.edits_refused += (landed - queued_edits_seen_) - (applied - queued_applied_seen_);
  const EditReport& last = world_.landed_edit();
  if (!last.applied) note_refusal(last.kind == EditKind::Cut ? "cut" : "remove", last.refused);
  counters_.edit_ms_max = std::max(counters_.edit_ms_max, last.landing_ms.total);
  queued_edits_seen_ = landed;
  queued_applied_seen_ = applied;
}

void SimThread::note_refusal(const char* what, const char* reason) {
  if (!reason) reason = "refused";
  // Once per (tool, reason): a stroke of refused cuts prints one line, not one per mouse move. Reasons are
  // static strings, so the pointer and tool name identify them; the table is fixed (no allocation).
  for (size_t k = 0; k < refusals_seen_; ++k)
    if (std::strcmp(refusals_[k].what, what) == 0 && std::strcmp(refusals_[k].reason, reason) == 0) return;
  if (refusals_seen_ < refusals_.size()) refusals_[refusals_seen_++] = {what, reason};
  std::fprintf(stderr, "weft: %s refused at tick %llu: %s (further ones counted: --json edits_refused, sews_refused)\n",
               what, static_cast<unsigned long long>(tick_), reason);
}

TickStats SimThread::stats() const {
  TickStats t = counters_;
  t.step_ms_p50 = step_hist_.percentile(0.50);
  t.step_ms_p99 = step_hist_.percentile(0.99);
  t.step_ms_max = step_hist_.max();
  t.lateness_ms_p50 = lateness_hist_.percentile(0.50);
  t.lateness_ms_p99 = lateness_hist_.percentile(0.99);
  t.lateness_ms_max = lateness_hist_.max();
  t.self_ms_p50 = self_hist_.percentile(0.50);
  t.self_ms_p99 = self_hist_.percentile(0.99);
  t.self_ms_max = self_hist_.max();
  t.publish_ms_p50 = publish_hist_.percentile(0.50);
  t.publish_ms_p99 = publish_hist_.percentile(0.99);
  t.events_rejected = events_.rejected();
  t.poses_overwritten = poses_.overwritten();
  t.poses_invalid = world_.invalid_pose_count();
  t.stream = meter_.summary();
  return t;
}

}  // namespace weft
