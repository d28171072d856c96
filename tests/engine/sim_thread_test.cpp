#include "engine/sim_thread.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <new>
#include <random>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "sim/cloth_model.h"
#include "sim/mesh_generators.h"
#include "tests/allocation_counter.h"
#include "tests/engine/stderr_capture.h"
#include "tests/engine/threading_scale.h"

namespace weft {
namespace {

using namespace std::chrono_literals;

World grid_world(uint32_t quads, double tick_hz) {
  GridSpec g;
  g.columns = g.rows = quads;
  const uint32_t top = quads * (quads + 1);
  WorldConfig c;
  c.tick_hz = tick_hz;
  return World(build_cloth_model(make_grid(g), Material{}, {top, top + quads}), c);
}

// Waits (bounded) until pred holds; the bound only guards against a hang, assertions are on counts.
template <typename F>
bool wait_for(F pred, std::chrono::milliseconds limit = 20s) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(200us);
  }
  return true;
}

// A parameter that changes the state, so the tick at which it applies shows in the hash.
bool kick_velocity(World& world, uint32_t parameter, double value, void*) {
  if (parameter != 1) return false;
  world.add_velocity(glm::vec3(0.f, 0.f, float(value)));
  return true;
}

// A timestamped input stream: pose samples of two devices at ~90 Hz and discrete events.
struct InputStream {
  std::vector<PoseSample> poses;  // sorted by time
  std::vector<SimEvent> events;   // sorted by tick
};

InputStream make_stream(uint64_t ticks, double tick_hz, uint32_t seed) {
  InputStream s;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(0.0, 0.004);
  for (double t = 0; t < double(ticks) / tick_hz; t += 1.0 / 90) {
    for (Device d : {Device::LeftHand, Device::Tracker0}) {
      PoseSample p;
      p.device = d;
      p.time = t + jitter(rng);
      p.pose.position = {float(t), 1.f, 0.2f};
      s.poses.push_back(p);
    }
  }
  std::sort(s.poses.begin(), s.poses.end(), [](auto& a, auto& b) { return a.time < b.time; });
  std::uniform_int_distribution<uint64_t> tick(1, ticks - 1);
  for (int i = 0; i < 40; ++i) {
    SimEvent e;
    e.tick = tick(rng);
    switch (i % 4) {
      case 0: e.kind = SimEventKind::SetParameter; e.parameter = 1; e.value = 0.01 * (i + 1); break;
      case 1: e.kind = SimEventKind::Grab; e.hand = Hand::Right; e.pose.position = {0.5f, 0.5f, 0.f}; break;
      case 2: e.kind = SimEventKind::Release; e.hand = Hand::Right; break;
      case 3: e.kind = i == 3 ? SimEventKind::Reset : SimEventKind::SetParameter; e.parameter = 1; e.value = -0.02; break;
    }
    s.events.push_back(e);
  }
  std::stable_sort(s.events.begin(), s.events.end(), [](auto& a, auto& b) { return a.tick < b.tick; });
  return s;
}

// The reference: the same stream applied to a world on one thread with the documented rule (before
// tick N: poses with time <= N / hz per device in order, then events stamped <= N in order).
uint64_t reference_hash(const InputStream& in, uint64_t ticks, double tick_hz, uint32_t quads) {
  World w = grid_world(quads, tick_hz);
  const ParameterHook hook{kick_velocity, nullptr};
  size_t e = 0;
  std::vector<size_t> next(kDeviceCount, 0);
  std::vector<std::vector<PoseSample>> per_device(kDeviceCount);
  for (const auto& p : in.poses) per_device[size_t(p.device)].push_back(p);
  for (uint64_t n = 0; n < ticks; ++n) {
    const double t = double(n) / tick_hz;
    for (size_t d = 0; d < size_t(kDeviceCount); ++d)
      while (next[d] < per_device[d].size() && per_device[d][next[d]].time <= t) w.submit_pose(per_device[d][next[d]++]);
    while (e < in.events.size() && in.events[e].tick <= n) apply_event(w, in.events[e++], hook);
    w.step();
  }
  return w.state_hash();
}

// Random sleeps on the sim thread, after some ticks.
void random_sleep(uint64_t ticks, void*) {
  thread_local std::mt19937 rng(12345);
  if (rng() % 4 == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 400));
  (void)ticks;
}

TEST_SUITE("threading") {

TEST_CASE("determinism: the same input stream gives the same state hash whatever the thread timing") {
  const double hz = 2000;  // fast ticks keep the test short
  const uint64_t ticks = test::scaled(1500) + 150;
  const uint32_t quads = 8;
  const InputStream in = make_stream(ticks, hz, 7);
  const uint64_t expected = reference_hash(in, ticks, hz, quads);
  // Lockstep needs room in the queue for one tick's events (the sim cannot drain past the horizon).
  for (const auto& e : in.events)
    REQUIRE(std::count_if(in.events.begin(), in.events.end(), [&](auto& o) { return o.tick == e.tick; }) < 4);

  for (int run = 0; run < 3; ++run) {
    SimThreadConfig c;
    c.tick_hz = hz;
    c.lockstep = true;
    c.event_capacity = 4;  // small, so the producer meets a full queue
    c.parameter_hook = {kick_velocity, nullptr};
    if (run > 0) c.tick_hook = {random_sleep, nullptr};
    SimThread sim(grid_world(quads, hz), c);
    sim.start();
    std::thread producer([&] {
      std::mt19937 rng(100 + run);
      size_t p = 0, e = 0;
      for (uint64_t n = 0; n < ticks; ++n) {
        // Stay within a few ticks of the sim, as a render thread would (the pose ring holds 16 samples).
        while (n > sim.ticks() + 8) std::this_thread::sleep_for(50us);
        while (e < in.events.size() && in.events[e].tick <= n) {
          if (sim.push_event(in.events[e])) ++e;
          else std::this_thread::sleep_for(20us);  // full: retry, never drop
        }
        while (p < in.poses.size() && in.poses[p].time < double(n + 1) / hz) sim.push_pose(in.poses[p++]);
        sim.set_input_horizon(n + 1);
        if (run > 0 && rng() % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 500));
      }
    });
    REQUIRE(wait_for([&] { return sim.ticks() >= ticks; }));
    producer.join();
    sim.stop();
    const TickStats st = sim.stats();
    CHECK(sim.ticks() == ticks);  // lockstep: never beyond the horizon
    CHECK(sim.world().state_hash() == expected);
    CHECK(st.events_applied == in.events.size());
    CHECK(st.events_late == 0);
    CHECK(st.poses_overwritten == 0);
    CHECK(st.poses_applied <= in.poses.size());
    MESSAGE("run " << run << ": stalls " << st.input_stalls << ", refused pushes " << st.events_rejected);
  }
}

TEST_CASE("determinism in real time: inputs stamped ahead of the sim replay to the same state hash") {
  // No lockstep: the producer stamps each input a margin ahead of the sim's current tick, as a render
  // thread would, and records the stamped stream. Replaying that record on one thread gives the same
  // state, because inputs apply by their stamps, not by when they arrived.
  const double hz = 240;
  const uint64_t ticks = 300;
  const uint64_t margin = 48;  // 200 ms: far more than any scheduling delay
  SimThreadConfig c;
  c.tick_hz = hz;
  c.parameter_hook = {kick_velocity, nullptr};
  c.tick_hook = {random_sleep, nullptr};
  SimThread sim(grid_world(6, hz), c);
  InputStream record;
  sim.start();
  std::mt19937 rng(5);
  while (sim.ticks() + margin < ticks) {
    const uint64_t at = sim.ticks() + margin;
    PoseSample p;
    p.device = Device::RightHand;
    p.time = double(at) / hz;
    if (record.poses.empty() || record.poses.back().time < p.time) {
      sim.push_pose(p);
      record.poses.push_back(p);
    }
    if (rng() % 4 == 0 && (record.events.empty() || record.events.back().tick < at)) {
      SimEvent e;
      e.tick = at;
      e.kind = rng() % 8 == 0 ? SimEventKind::Reset : SimEventKind::SetParameter;
      e.parameter = 1;
      e.value = 0.001 * double(rng() % 100);
      REQUIRE(sim.push_event(e));
      record.events.push_back(e);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(rng() % 3000));
  }
  REQUIRE(wait_for([&] { return sim.ticks() >= ticks; }));
  sim.stop();
  const TickStats st = sim.stats();
  REQUIRE(st.events_late == 0);
  CHECK(st.events_applied == record.events.size());
  CHECK(record.events.size() > 10);
  // The sim may have run a few ticks past `ticks`; replay exactly as many.
  CHECK(sim.world().state_hash() == reference_hash(record, sim.ticks(), hz, 6));
}

TEST_CASE("no allocation on the per-tick path (counting operator new over N ticks after warm-up)") {
  const double hz = 2000;
  SimThreadConfig c;
  c.tick_hz = hz;
  c.parameter_hook = {kick_velocity, nullptr};
  SimThread sim(grid_world(16, hz), c);
  sim.start();
  SnapshotBuffer& snaps = sim.snapshots();
  REQUIRE(wait_for([&] { return sim.ticks() >= 50; }));

  const uint64_t n = test::scaled(2000);
  const uint64_t before = test::allocation_count();
  const uint64_t t0 = sim.ticks();
  uint64_t read = 0, k = 0;
  double t = double(t0) / hz;
  while (sim.ticks() < t0 + n) {
    // The render side's traffic, also allocation-free: poses, events, snapshot reads.
    PoseSample p;
    p.time = t;
    p.device = Device(k % kDeviceCount);
    sim.push_pose(p);
    SimEvent e;
    e.tick = sim.ticks() + 2;
    e.kind = k % 3 == 0 ? SimEventKind::Grab : (k % 3 == 1 ? SimEventKind::Release : SimEventKind::SetParameter);
    e.parameter = 1;
    sim.push_event(e);
    if (snaps.update()) ++read;
    t += 0.0005;
    ++k;
    std::this_thread::sleep_for(300us);
  }
  const uint64_t after = test::allocation_count();
  sim.stop();
  CHECK(read > 0);
  CHECK(sim.stats().events_applied > 0);
  CHECK(sim.stats().poses_applied > 0);
  CHECK(after - before == 0);
}

TEST_CASE("pause stops ticking and single-step runs exactly one tick until resume") {
  SimThreadConfig c;
  c.tick_hz = 1000;
  SimThread sim(grid_world(4, 1000), c);
  sim.pause();
  sim.start();
  std::this_thread::sleep_for(30ms);
  CHECK(sim.ticks() == 0);
  sim.single_step();
  sim.single_step();
  REQUIRE(wait_for([&] { return sim.ticks() >= 2; }));
  std::this_thread::sleep_for(30ms);
  CHECK(sim.ticks() == 2);
  sim.resume();
  REQUIRE(wait_for([&] { return sim.ticks() >= 20; }));
  sim.stop();
  const uint64_t stopped_at = sim.ticks();
  std::this_thread::sleep_for(10ms);
  CHECK(sim.ticks() == stopped_at);
  CHECK(sim.stats().ticks == stopped_at);
  // Paused time (>= 60 ms, 60 deadlines) is not counted as skipped; a few may be, from preemption.
  CHECK(sim.stats().skipped_ticks < 40);
}

TEST_CASE("snapshots carry tick and sim time and stats and the reader keeps the last two") {
  SimThreadConfig c;
  c.tick_hz = 240;
  SimThread sim(grid_world(4, 240), c);
  CHECK(sim.run_ticks(3) == 3);
  SnapshotBuffer& b = sim.snapshots();
  REQUIRE(b.update());
  CHECK(b.read_buffer().tick == 3);
  CHECK(b.read_buffer().sim_time == doctest::Approx(3.0 / 240));
  CHECK(b.read_buffer().stats.ticks == 3);
  CHECK(b.read_buffer().position.size() == sim.world().model().vertex_count());
  CHECK(b.history(1) == nullptr);
  sim.run_ticks(1);
  REQUIRE(b.update());
  REQUIRE(b.history(1) != nullptr);
  CHECK(b.history(1)->tick == 3);
  CHECK(b.read_buffer().tick == 4);
  CHECK(b.read_buffer().position != b.history(1)->position);  // the cloth moves under gravity
  CHECK(sim.mesh().triangles.size() == sim.world().model().triangle_count());
}

TEST_CASE("inputs apply by timestamp at tick boundaries and late ones apply next tick counted") {
  SimThreadConfig c;
  c.tick_hz = 240;
  c.parameter_hook = {kick_velocity, nullptr};
  SimThread sim(grid_world(4, 240), c);
  SimEvent kick;
  kick.kind = SimEventKind::SetParameter;
  kick.parameter = 1;
  kick.value = 1.0;
  kick.tick = 5;
  REQUIRE(sim.push_event(kick));
  PoseSample p;
  p.device = Device::RightHand;
  p.time = 2.5 / 240;  // due at the boundary of tick 3
  p.pose.position = {1.f, 2.f, 3.f};
  sim.push_pose(p);
  PoseSample bad = p;
  bad.time = 2.6 / 240;
  bad.pose.position.x = std::nanf("");
  sim.push_pose(bad);

  sim.run_ticks(3);
  CHECK(sim.stats().poses_applied == 0);  // not yet due
  sim.run_ticks(1);
  CHECK(sim.stats().poses_applied == 2);
  // the NaN one is rejected and counted (by the conditioning, before it could reach the world)
  CHECK(sim.stats().poses_conditioned_out + sim.stats().poses_invalid == 1);
  CHECK(sim.stats().events_applied == 0);
  sim.run_ticks(2);
  CHECK(sim.stats().events_applied == 1);
  CHECK(sim.stats().events_late == 0);

  kick.tick = 2;  // arrives after its tick
  REQUIRE(sim.push_event(kick));
  kick.parameter = 99;  // nobody handles it
  kick.tick = 6;
  REQUIRE(sim.push_event(kick));
  sim.run_ticks(1);
  CHECK(sim.stats().events_applied == 2);
  CHECK(sim.stats().events_late == 1);
  CHECK(sim.stats().events_unhandled == 1);
  SnapshotBuffer& b = sim.snapshots();
  REQUIRE(b.update());
  CHECK(b.read_buffer().hands[1].active);
  CHECK(b.read_buffer().hands[1].position == glm::vec3(1.f, 2.f, 3.f));  // the last valid sample
  CHECK_FALSE(b.read_buffer().hands[0].active);
}

TEST_CASE("a full event queue is reported to the producer and counted") {
  SimThreadConfig c;
  c.event_capacity = 2;
  SimThread sim(grid_world(4, 240), c);
  SimEvent e;
  e.tick = 100;
  CHECK(sim.push_event(e));
  CHECK(sim.push_event(e));
  CHECK_FALSE(sim.push_event(e));
  sim.run_ticks(1);
  CHECK(sim.stats().events_rejected == 1);
}

TEST_CASE("sim thread rejects a bad tick rate") {
  SimThreadConfig c;
  c.tick_hz = 50;
  CHECK_THROWS_AS(SimThread(grid_world(2, 50), c), std::invalid_argument);
  c.tick_hz = 240;
  CHECK_THROWS_AS(SimThread(grid_world(2, 120), c), std::invalid_argument);  // differs from the world's
}

}  // TEST_SUITE
}  // namespace
}  // namespace weft

namespace weft {

// Tools reach the world as events at tick boundaries; what it refuses is counted per event but printed once
// per reason (a stroke of refused cuts is one line), and every one of them is recorded for the replay.
TEST_CASE("tool events: refused edits and sews are counted, their reason printed once, all recorded") {
  SimThreadConfig c;
  c.input_log_capacity = 64;
  SimThread sim(grid_world(4, 240), c);
  const float nan = std::nanf("");
  for (uint64_t k = 0; k < 3; ++k) {
    SimEvent e;
    e.tick = k;
    e.kind = SimEventKind::Edit;
    e.tool.kind = ToolActionKind::Cut;
    e.tool.a_from = glm::vec3(nan, 0.f, 0.f);  // a broken blade: refused, never applied
    e.tool.radius = 0.01f;
    CHECK(sim.push_event(e));
  }
  SimEvent sew;
  sew.tick = 3;
  sew.kind = SimEventKind::Sew;
  sew.tool.kind = ToolActionKind::Sew;
  sew.tool.a_from = glm::vec3(nan);
  CHECK(sim.push_event(sew));
  const std::string err = test::stderr_of([&] { sim.run_ticks(5); });
  const TickStats st = sim.stats();
  CHECK(st.edits_refused == 3);
  CHECK(st.edits_applied == 0);
  CHECK(st.sews_refused == 1);
  CHECK(st.topology_changes == 0);
  CHECK(st.events_applied == 4);
  size_t lines = 0;
  for (size_t at = err.find("cut refused"); at != std::string::npos; at = err.find("cut refused", at + 1)) ++lines;
  CHECK(lines == 1);
  CHECK(err.find("sew refused at tick 3") != std::string::npos);
  std::vector<StreamRecord> log;
  while (const StreamRecord* r = sim.input_log()->front()) log.push_back(*r), sim.input_log()->pop();
  REQUIRE(log.size() == 4);
  for (int k = 0; k < 3; ++k) {
    CHECK(log[size_t(k)].kind == StreamRecordKind::Edit);
    CHECK(log[size_t(k)].tick == uint64_t(k));
  }
  CHECK(log[3].kind == StreamRecordKind::Sew);
  CHECK(std::isnan(log[3].tool.a_from.x));
}

}  // namespace weft

namespace weft {

// A cut adds vertices and triangles: the snapshots published after it carry the new topology (generation 1),
// written within the room every slot reserved at load, so no slot's arrays move (nothing allocated).
TEST_CASE("tool events: a cut gives the published snapshots the new topology without reallocating") {
  SimThread sim(grid_world(8, 240), SimThreadConfig{});
  sim.run_ticks(1);
  const size_t nvert = sim.world().model().vertex_count();
  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const glm::vec3& p : sim.world().state().position) lo = glm::min(lo, p), hi = glm::max(hi, p);
  const float y = glm::mix(lo.y, hi.y, 0.45f), z = 0.5f * (lo.z + hi.z);
  SimEvent cut;
  cut.tick = 1;
  cut.kind = SimEventKind::Edit;
  cut.tool.kind = ToolActionKind::Cut;
  cut.tool.a_from = {lo.x - 0.1f, y, z};
  cut.tool.a_to = {hi.x + 0.1f, y, z};
  cut.tool.radius = 0.02f;
  REQUIRE(sim.push_event(cut));
  std::vector<const void*> storage;
  sim.snapshots().for_each_slot([&](ClothSnapshot& s) {
    storage.push_back(s.position.data());
    storage.push_back(s.topology.triangles.data());
    storage.push_back(s.topology.material.data());
  });
  sim.run_ticks(4);  // four publishes: each of the three slots written at least once since the cut
  const TickStats st = sim.stats();
  REQUIRE(st.edits_applied == 1);
  CHECK(st.topology_changes == 1);
  const ClothModel& m = sim.world().model();
  CHECK(m.vertex_count() > nvert);
  CHECK(m.vertex_count() <= 2 * nvert);
  REQUIRE(sim.snapshots().update());
  const ClothSnapshot& s = sim.snapshots().read_buffer();
  CHECK(s.topology.generation == 1);
  CHECK(s.topology.triangles == m.triangle);
  CHECK(s.position.size() == m.vertex_count());
  CHECK(s.topology.material.size() == m.vertex_count());
  std::vector<const void*> after;
  sim.snapshots().for_each_slot([&](ClothSnapshot& s) {
    after.push_back(s.position.data());
    after.push_back(s.topology.triangles.data());
    after.push_back(s.topology.material.data());
  });
  CHECK(after == storage);
}

}  // namespace weft
