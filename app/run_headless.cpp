// `weft run --mode headless --no-render`: the runtime free-running on the wall clock, with a consumer
// thread standing in for the renderer: at 90 Hz it drives the scene's scripted two-hand demo (poses
// stamped with the runtime clock, as live hands would be) and takes the newest snapshot, interpolated to
// its display time. No GPU needed: it measures the sim thread under a live-like load.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "app/run_options.h"
#include "app/run_summary.h"
#include "engine/snapshot_interpolation.h"
#include "engine/stream_replay.h"

namespace weft::app {

namespace {

constexpr double kConsumerHz = 90;   // a typical headset display rate
constexpr double kDefaultSeconds = 10;

}  // namespace

std::unique_ptr<Runtime> make_runtime(const RunOptions& o, RuntimeOptions ro) {
  ro.scene_file = o.scene;
  ro.solver = o.solver;
  ro.threads = o.threads;
  ro.device = o.device;
  ro.material = o.material;
  ro.tick_hz = o.tick_hz;
  ro.priority = parse_sim_priority(o.sim_priority);
  ro.debug_tick_sleep_ms = o.debug_tick_sleep_ms;
  if (o.scene.empty() && o.grid > 0) {
    const std::string label = "builtin:hanging:" + std::to_string(o.grid);
    return std::make_unique<Runtime>(ro, hanging_grid_scene(o.grid), label);
  }
  return std::make_unique<Runtime>(ro);
}

SimPriority parse_sim_priority(const std::string& name) {
  return name == "normal" ? SimPriority::Normal : name == "high" ? SimPriority::High : SimPriority::Realtime;
}

int run_headless_sim(const RunOptions& options) {
  double seconds = options.seconds;
  if (seconds <= 0 && options.frames == 0) {
    seconds = kDefaultSeconds;
    std::fprintf(stderr, "weft: no --seconds or --frames: running %.0f s\n", seconds);
  }
  std::unique_ptr<Runtime> rt = make_runtime(options, {});
  Runtime& runtime = *rt;
  std::fprintf(stderr, "weft: headless sim of '%s' (%zu vertices, %s) at %.0f Hz, snapshots read at %.0f Hz\n",
               runtime.scene().name.c_str(), runtime.scene().vertices, runtime.scene().solver.c_str(),
               runtime.scene().tick_hz, kConsumerHz);
  print_device_line(runtime.scene());
  TwoHandScript script = script_for(runtime.scene());
  const double tick = 1.0 / runtime.scene().tick_hz;
  FrameStats frames;
  ClothSnapshot snapshot;
  snapshot.resize(runtime.scene().vertices);
  runtime.start();
  std::thread consumer([&] {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto period = std::chrono::duration<double>(1.0 / kConsumerHz);
    for (uint64_t f = 0;; ++f) {
      if (seconds > 0 && std::chrono::duration<double>(Clock::now() - start).count() >= seconds) break;
      if (options.frames > 0 && f >= options.frames) break;
      const double drawn = interpolate_snapshot(runtime.snapshots(), runtime.clock_now() - tick, snapshot);
      if (options.script && drawn >= 0) {
        const auto& corners = runtime.scene().near_corners;
        script.track_corners(snapshot.position[corners[0]], snapshot.position[corners[1]]);
        script.drive(runtime.clock_now(), runtime.input());
      }
      frames.frame_done(drawn >= 0 ? runtime.clock_now() - drawn : -1);
      std::this_thread::sleep_until(start + std::chrono::duration_cast<Clock::duration>(period * double(f + 1)));
    }
  });
  consumer.join();
  runtime.stop();
  nlohmann::json out = run_summary("headless-sim", runtime, frames);
  out["consumer_hz"] = kConsumerHz;
  if (options.json) std::cout << out.dump(2) << "\n";
  else print_run_summary(out);
  return 0;
}

}  // namespace weft::app
