#include "engine/sim_thread.h"

#include <chrono>
#include <cmath>
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

void fill_gizmo(DeviceGizmo& g, bool seen, const PoseSample& s, bool grabbing) {
  g.active = seen && s.valid;
  g.grabbing = grabbing;
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
      events_(config.event_capacity) {
  if (!(config.tick_hz >= 60 && config.tick_hz <= 2000))
    throw std::invalid_argument("tick rate " + std::to_string(config.tick_hz) + " Hz is outside 60 to 2000 Hz");
  if (std::abs(world_.time_step() * config.tick_hz - 1.0) > 1e-9)
    throw std::invalid_argument("sim thread tick rate differs from the world's (WorldConfig::tick_hz)");
  if (config.max_catch_up == 0) throw std::invalid_argument("max_catch_up must be at least 1");
  const size_t n = world_.model().vertex_count();
  snapshots_.for_each_slot([n](ClothSnapshot& s) { s.resize(n); });
}

SimThread::~SimThread() { stop(); }

void SimThread::start() {
  if (thread_.joinable()) return;
  stop_.store(false, std::memory_order_relaxed);
  thread_ = std::thread([this] { loop(); });
}

void SimThread::stop() {
  if (!thread_.joinable()) return;
  stop_.store(true, std::memory_order_relaxed);
  thread_.join();
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
  schedule.rebase(now_ns());
  bool was_paused = false;
  while (!stop_.load(std::memory_order_relaxed)) {
    if (paused_.load(std::memory_order_relaxed)) {
      was_paused = true;
      if (step_requests_.load(std::memory_order_relaxed) > 0) {
        step_requests_.fetch_sub(1, std::memory_order_relaxed);
        if (tick_once()) publish_snapshot();
      }
      std::this_thread::sleep_for(std::chrono::nanoseconds(period_ns));
      continue;
    }
    if (was_paused) {  // paused time is neither late nor skipped: restart the schedule now
      schedule.rebase(now_ns());
      step_requests_.store(0, std::memory_order_relaxed);  // single steps count only while paused
      was_paused = false;
    }
    const int64_t wake = now_ns();
    const TickScheduler::Wake w = schedule.on_wake(wake);
    counters_.skipped_ticks += w.skipped;
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

bool SimThread::tick_once() {
  if (config_.lockstep && horizon_.load(std::memory_order_acquire) <= tick_) return false;

  // Inputs due at this boundary: poses first (by device, oldest first), then events in queue order.
  const double boundary_time = double(tick_) / config_.tick_hz;
  for (int d = 0; d < kDeviceCount; ++d) {
    counters_.poses_applied += poses_.consume(Device(d), boundary_time, [&](const PoseSample& s) {
      if (!world_.submit_pose(s)) return;  // rejected and counted by the world
      last_pose_[size_t(d)] = s;
      pose_seen_[size_t(d)] = true;
    });
  }
  while (const SimEvent* e = events_.front()) {
    if (e->tick > tick_) break;
    if (e->tick < tick_) ++counters_.events_late;
    const EventResult r = apply_event(world_, *e, config_.parameter_hook);
    const size_t hand = size_t(e->hand) & 1u;
    if (e->kind == SimEventKind::Grab) grabbing_[hand] = r.grabbed > 0;
    if (e->kind == SimEventKind::Release) grabbing_[hand] = false;
    if (e->kind == SimEventKind::Reset) grabbing_ = {false, false};
    ++(r.applied ? counters_.events_applied : counters_.events_unhandled);
    events_.pop();
  }

  const auto t0 = Clock::now();
  world_.step();
  step_hist_.record(ms_between(t0, Clock::now()));
  ++tick_;
  ++counters_.ticks;
  ticks_done_.store(tick_, std::memory_order_release);
  if (config_.tick_hook.after_tick) config_.tick_hook.after_tick(tick_, config_.tick_hook.context);
  return true;
}

void SimThread::publish_snapshot() {
  const auto t0 = Clock::now();
  ClothSnapshot& s = snapshots_.write_buffer();
  fill_snapshot(world_, s);
  s.tick = tick_;  // the runtime clock, monotonic across resets (the world's restarts)
  s.sim_time = double(tick_) / config_.tick_hz;
  for (size_t h = 0; h < 2; ++h) fill_gizmo(s.hands[h], pose_seen_[h], last_pose_[h], grabbing_[h]);
  for (size_t k = 0; k < s.trackers.size(); ++k) fill_gizmo(s.trackers[k], pose_seen_[2 + k], last_pose_[2 + k], false);
  s.stats = stats();
  snapshots_.publish();
  publish_hist_.record(ms_between(t0, Clock::now()));
}

TickStats SimThread::stats() const {
  TickStats t = counters_;
  t.step_ms_p50 = step_hist_.percentile(0.50);
  t.step_ms_p99 = step_hist_.percentile(0.99);
  t.step_ms_max = step_hist_.max();
  t.lateness_ms_p50 = lateness_hist_.percentile(0.50);
  t.lateness_ms_p99 = lateness_hist_.percentile(0.99);
  t.lateness_ms_max = lateness_hist_.max();
  t.publish_ms_p50 = publish_hist_.percentile(0.50);
  t.publish_ms_p99 = publish_hist_.percentile(0.99);
  t.events_rejected = events_.rejected();
  t.poses_overwritten = poses_.overwritten();
  t.poses_invalid = world_.invalid_pose_count();
  return t;
}

}  // namespace weft
