// `weft run --mode headless --no-render`: the sim thread at its fixed tick plus a consumer thread that
// takes the newest snapshot at 90 Hz, as a renderer would, then the timing statistics.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>

#include "app/run_options.h"
#include "engine/sim_thread.h"
#include "sim/cloth_model.h"
#include "sim/mesh_generators.h"
#include "sim/world.h"

namespace weft::app {

namespace {

constexpr double kConsumerHz = 90;   // a typical headset display rate
constexpr double kDefaultSeconds = 10;

// A 1 m square grid, tilted 80 degrees from hanging straight, pinned by its two top corners: it
// swings down and settles, so every tick does real work.
World make_hanging_cloth(uint32_t quads, double tick_hz, const std::string& solver) {
  GridSpec spec;
  spec.columns = spec.rows = quads;
  Mesh mesh = make_grid(spec);
  glm::mat4 m = glm::translate(glm::mat4(1.f), glm::vec3(-0.5f, 1.5f, 0.f));
  m = glm::rotate(m, glm::radians(80.f), glm::vec3(1.f, 0.f, 0.f));
  m = glm::translate(m, glm::vec3(0.f, -1.f, 0.f));  // top edge (y = 1) at the pivot
  transform_mesh(mesh, m);
  const uint32_t top = quads * (quads + 1);
  ClothModel model = build_cloth_model(mesh, Material{}, {top, top + quads});
  WorldConfig config;
  config.tick_hz = tick_hz;
  // The 16k-vertex timing scene runs Kang & Cho's O(n) solver unless asked otherwise: CG cannot keep a
  // 240 Hz tick at that size on one core.
  config.integrator = parse_integrator_kind(solver.empty() ? "approx" : solver);
  return World(std::move(model), config);
}

struct ConsumerResult {
  uint64_t frames = 0;
  uint64_t snapshots_read = 0;
  uint64_t last_tick = 0;
  float checksum = 0;         // keeps the reads from being optimised away
};

// Reads snapshots at kConsumerHz on absolute deadlines until the time or frame limit.
ConsumerResult consume(SimThread& sim, double seconds, uint64_t max_frames) {
  using Clock = std::chrono::steady_clock;
  ConsumerResult r;
  SnapshotBuffer& buffer = sim.snapshots();
  const auto start = Clock::now();
  const auto period = std::chrono::duration<double>(1.0 / kConsumerHz);
  for (;;) {
    const auto now = Clock::now();
    if (seconds > 0 && std::chrono::duration<double>(now - start).count() >= seconds) break;
    if (max_frames > 0 && r.frames >= max_frames) break;
    if (buffer.update()) ++r.snapshots_read;
    if (buffer.has_value()) {
      const ClothSnapshot& s = buffer.read_buffer();
      const ClothSnapshot* prev = buffer.history(1);
      // Draw at the newest snapshot's time minus one tick, between the last two (as a renderer would).
      const double t = s.sim_time - 1.0 / sim.tick_hz();
      float a = 1.f;
      if (prev && s.sim_time > prev->sim_time) {
        a = float((t - prev->sim_time) / (s.sim_time - prev->sim_time));
        a = a < 0.f ? 0.f : (a > 1.f ? 1.f : a);
      }
      float sum = 0;
      for (size_t i = 0; i < s.position.size(); ++i) {
        const glm::vec3 p = prev ? glm::mix(prev->position[i], s.position[i], a) : s.position[i];
        sum += p.y + s.normal[i].y;
      }
      r.checksum += sum;
      r.last_tick = s.tick;
    }
    ++r.frames;
    std::this_thread::sleep_until(start + std::chrono::duration_cast<Clock::duration>(period * double(r.frames)));
  }
  return r;
}

}  // namespace

int run_headless_sim(const RunOptions& options) {
  double seconds = options.seconds;
  if (seconds <= 0 && options.frames == 0) {
    seconds = kDefaultSeconds;
    std::fprintf(stderr, "weft: no --seconds or --frames: running %.0f s\n", seconds);
  }
  SimThreadConfig config;
  config.tick_hz = options.tick_hz;
  config.priority = options.sim_priority == "normal" ? SimPriority::Normal
                    : options.sim_priority == "high"  ? SimPriority::High
                                                      : SimPriority::Realtime;
  SimThread sim(make_hanging_cloth(options.grid, options.tick_hz, options.solver), config);
  const size_t vertices = sim.world().model().vertex_count();
  std::fprintf(stderr, "weft: headless sim, %zu vertices at %.0f Hz, snapshots read at %.0f Hz\n", vertices,
               options.tick_hz, kConsumerHz);

  const auto t0 = std::chrono::steady_clock::now();
  sim.start();
  ConsumerResult consumed;
  std::thread consumer([&] { consumed = consume(sim, seconds, options.frames); });
  consumer.join();
  sim.stop();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const TickStats st = sim.stats();
  nlohmann::json out = {
      {"tick_hz", options.tick_hz},
      {"ticks", st.ticks},
      {"step_ms_p50", st.step_ms_p50},
      {"step_ms_p99", st.step_ms_p99},
      {"step_ms_max", st.step_ms_max},
      {"lateness_ms_p50", st.lateness_ms_p50},
      {"lateness_ms_p99", st.lateness_ms_p99},
      {"lateness_ms_max", st.lateness_ms_max},
      {"skipped_ticks", st.skipped_ticks},
      {"publish_ms_p50", st.publish_ms_p50},
      {"publish_ms_p99", st.publish_ms_p99},
      {"wakes", st.wakes},
      {"sim_priority", sim_priority_name(SimPriority(st.priority))},
      {"snapshots_read", consumed.snapshots_read},
      {"snapshots_published", sim.snapshots().published()},
      {"snapshots_overwritten", sim.snapshots().overwritten()},
      {"frames", consumed.frames},
      {"consumer_hz", kConsumerHz},
      {"vertices", vertices},
      {"wall_seconds", wall},
      {"sim_time", double(st.ticks) / options.tick_hz},
      {"state_hash", sim.world().state_hash()},
  };
  if (options.json) {
    std::cout << out.dump(2) << "\n";
  } else {
    std::printf("%llu ticks at %.0f Hz in %.2f s (%llu skipped), %zu vertices\n", (unsigned long long)st.ticks,
                options.tick_hz, wall, (unsigned long long)st.skipped_ticks, vertices);
    std::printf("step     p50 %.3f ms  p99 %.3f ms  max %.3f ms\n", st.step_ms_p50, st.step_ms_p99, st.step_ms_max);
    std::printf("lateness p50 %.3f ms  p99 %.3f ms  max %.3f ms\n", st.lateness_ms_p50, st.lateness_ms_p99,
                st.lateness_ms_max);
    std::printf("sim thread priority %s\n", sim_priority_name(SimPriority(st.priority)));
    std::printf("consumer %llu frames at %.0f Hz, %llu snapshots read\n", (unsigned long long)consumed.frames,
                kConsumerHz, (unsigned long long)consumed.snapshots_read);
  }
  return 0;
}

}  // namespace weft::app
