#pragma once
// The simulation thread: steps a World at a fixed tick on absolute steady-clock deadlines and
// exchanges data with the render/input side without locks or per-tick allocation:
//   sim -> render: the newest ClothSnapshot through a triple buffer (the reader also keeps the previous
//                  one, to interpolate by sim time);
//   render -> sim: pose samples (latest value wins, PoseMailbox) and discrete events (bounded SPSC queue).
// Inputs apply by their timestamps at tick boundaries, never by arrival: at the boundary before tick N
// (sim time N / tick_hz) the sim hands the world every pose sample with time <= N / tick_hz, oldest
// first per device, then every event stamped tick <= N, in queue order. An input that arrives after its
// boundary applies at the next one and is counted late; in lockstep mode the sim never passes a tick
// until the producer declares its inputs complete (set_input_horizon), which makes the state a function
// of the input stream alone. Times here are the runtime clock (tick / tick_hz), monotonic across Reset
// events, which restart only the world's own state.
//
// Two ways to run: free-running on the wall clock (interactive modes: window, xr, --no-render), or
// lockstep with free_wheel (offline modes: headless frames, record, replay, stress), where each tick runs
// as soon as its inputs are complete, as fast as the CPU allows, on this same thread and code path.
// Pose conditioning (engine/pose_conditioner.h) runs here too, on the samples as they apply, so every
// mode conditions the same way. This is the one place a pose is checked and its rejection counted (front
// ends forward what they have): the conditioner refuses what is flagged, broken, off the stage or an
// outlier (TickStats::poses_conditioned_out); the world's own check refuses, and counts, only what reaches
// it and it cannot take (TickStats::poses_invalid: everything bad when conditioning is off; with it on, a
// sample older than the world's newest after a device reset). With an input log, every input the sim
// applied is handed back (raw, with the tick it applied at) for recording, which makes a recording replay
// bit for bit in any mode.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

#include "engine/latency_histogram.h"
#include "engine/pose_conditioner.h"
#include "engine/pose_mailbox.h"
#include "engine/pose_stream.h"
#include "engine/sim_event.h"
#include "engine/snapshot.h"
#include "engine/stream_metrics.h"
#include "engine/spsc_queue.h"
#include "engine/tick_scheduler.h"
#include "engine/triple_buffer.h"
#include "sim/world.h"

namespace weft {

// Called on the sim thread after every tick with the number of ticks done (instrumentation, tests).
// Must not block or allocate. `observe` also gets the world, read-only, on the thread that owns it (the
// stress harness measures every tick this way).
struct TickHook {
  void (*after_tick)(uint64_t ticks_done, void* context) = nullptr;
  void* context = nullptr;
  void (*observe)(const World& world, uint64_t ticks_done, void* context) = nullptr;
  void* observe_context = nullptr;
};

// Scheduling class the sim thread asks for when it starts; what it got is in TickStats::priority.
enum class SimPriority : uint8_t {
  Normal,    // the default time-sharing class
  High,      // time-sharing at nice -10: wakes ahead of ordinary work on a loaded machine
  Realtime,  // SCHED_FIFO priority 10 (needs CAP_SYS_NICE); the kernel still caps RT use at 95%
};
const char* sim_priority_name(SimPriority p);

struct SimThreadConfig {
  double tick_hz = 240;       // 60 to 2000; must match the world's tick
  uint64_t max_catch_up = 4;  // ticks run per wake at most; further due ticks are skipped and counted
  size_t event_capacity = 1024;  // lockstep: must exceed the events stamped for any one tick
  bool lockstep = false;      // step tick N only once set_input_horizon(> N) was called
  bool free_wheel = false;    // lockstep only: no clock; a tick runs as soon as its inputs are complete
  bool condition_poses = true;          // poses pass the conditioner before the world (off: world checks only)
  ConditionerConfig conditioning;
  size_t input_log_capacity = 0;        // > 0: every applied input goes to input_log() (for recording)
  double debug_tick_sleep_ms = 0;       // test/debug only: each tick also sleeps this long (a slow sim)
  SimPriority priority = SimPriority::Normal;  // not permitted: falls back realtime -> high -> normal
  ParameterHook parameter_hook;
  TickHook tick_hook;
};

// Newest snapshot plus the one before it, for interpolation.
using SnapshotBuffer = TripleBuffer<ClothSnapshot, 2>;

class SimThread {
 public:
  // Throws std::invalid_argument when tick_hz is out of range or differs from the world's.
  SimThread(World world, const SimThreadConfig& config);
  ~SimThread();
  SimThread(const SimThread&) = delete;
  SimThread& operator=(const SimThread&) = delete;

  // --- control (the owning thread)
  void start();
  void stop();  // joins; the world and stats can then be read
  bool running() const { return thread_.joinable(); }
  void pause() { paused_.store(true, std::memory_order_relaxed); }
  void resume() { paused_.store(false, std::memory_order_relaxed); }
  bool paused() const { return paused_.load(std::memory_order_relaxed); }
  // While paused: runs one more tick (ignored while running; pending steps are dropped on resume).
  void single_step() {
    if (paused()) step_requests_.fetch_add(1, std::memory_order_relaxed);
  }

  // --- input producer (one thread)
  // Queues an event for its tick; false when the queue is full (counted in stats.events_rejected).
  bool push_event(const SimEvent& event) { return events_.push(event); }
  void push_pose(const PoseSample& sample) { poses_.push(sample); }
  // Lockstep: every input for ticks < tick (pose times < tick / tick_hz) has been pushed.
  void set_input_horizon(uint64_t tick) {
    horizon_.store(tick, std::memory_order_release);
    wake_.fetch_add(1, std::memory_order_release);
    wake_.notify_one();
  }
  // Blocks until `tick` ticks are done and the snapshot of that tick (or a later one) is published, or the
  // thread stopped. Returns ticks().
  uint64_t wait_published(uint64_t tick) const;
  // The runtime clock now (s): the sim time the fixed-tick schedule is at on the wall clock, never past
  // the end of the next tick to run (a sim that overruns holds it back). Frozen while paused. Live front
  // ends stamp pose samples with it.
  double clock_now() const;

  // --- input log reader (one thread; only with input_log_capacity > 0)
  SpscQueue<StreamRecord>* input_log() { return input_log_.get(); }

  // --- snapshot reader (one thread)
  SnapshotBuffer& snapshots() { return snapshots_; }
  const SnapshotMesh& mesh() const { return mesh_; }

  // --- any thread
  uint64_t ticks() const { return ticks_done_.load(std::memory_order_acquire); }
  uint64_t published_ticks() const { return published_tick_.load(std::memory_order_acquire); }
  double tick_hz() const { return config_.tick_hz; }

  // --- while not running
  // Runs n ticks on the calling thread without the clock (lockstep still honoured: stops early and
  // returns the ticks run if the horizon is reached).
  uint64_t run_ticks(uint64_t n);
  const World& world() const { return world_; }
  TickStats stats() const;
  const PoseConditioner& conditioner() const { return conditioner_; }

 private:
  void loop();
  void loop_free_wheel();
  void apply_pose(Device d, const PoseSample& raw);
  void log_input(const StreamRecord& r);
  bool tick_once();  // false: lockstep stall, nothing done
  void publish_snapshot();
  void note_refusal(const char* what, const char* reason);  // prints a refused tool's reason once
  void count_landed_edits();  // queued edits that landed since last looked: counted, a refusal noted

  World world_;
  SimThreadConfig config_;
  SnapshotMesh mesh_;
  SnapshotBuffer snapshots_;
  SpscQueue<SimEvent> events_;
  PoseMailbox poses_;
  alignas(64) std::atomic<uint64_t> horizon_{0};
  std::atomic<uint32_t> wake_{0};  // bumped by set_input_horizon and stop: the free-wheel loop waits on it
  std::atomic<bool> stop_{false}, paused_{false};
  std::atomic<uint64_t> step_requests_{0};
  std::atomic<uint64_t> ticks_done_{0};
  std::atomic<uint64_t> published_tick_{0};   // tick of the newest published snapshot
  std::atomic<uint32_t> publish_seq_{0};      // bumped by every publish and by stop: wait_published waits on it
  std::atomic<bool> started_{false};
  std::atomic<int64_t> clock_zero_ns_{0};  // steady-clock ns at which the runtime clock read 0
  std::unique_ptr<SpscQueue<StreamRecord>> input_log_;
  std::thread thread_;

  // Sim-thread state.
  uint64_t tick_ = 0;  // runtime tick count (never reset; a Reset event restarts only the world)
  TickStats counters_;
  LatencyHistogram step_hist_, lateness_hist_, publish_hist_;
  LatencyHistogram self_hist_;  // self-collision ms per tick (while it is on)
  PoseConditioner conditioner_;
  StreamMeter meter_;
  std::array<PoseSample, kDeviceCount> last_pose_{};
  std::array<bool, kDeviceCount> pose_seen_{};
  uint64_t topology_generation_ = 0;  // bumped by every input that changed the mesh (ClothSnapshot::topology)
  uint64_t world_topology_seen_ = 0;  // World::topology_generation when last looked at
  uint64_t queued_edits_seen_ = 0, queued_applied_seen_ = 0;  // queued edits that landed (applied), counted
  struct Refusal {
    const char* what = nullptr;
    const char* reason = nullptr;
  };
  std::array<Refusal, 32> refusals_{};  // (tool, reason) pairs already printed
  size_t refusals_seen_ = 0;
};

}  // namespace weft
