#pragma once
// Options of `weft run`, shared by every mode (headless sim, headless render, window, XR).
#include <cstdint>
#include <memory>
#include <string>

#include "engine/runtime.h"

namespace weft::app {

struct RunOptions {
  std::string mode = "auto";   // auto | headless | window | xr | xr-headless
  std::string scene;           // scene JSON (empty: the default scene)
  double seconds = 0;          // stop after this much wall time (0: no limit)
  uint64_t frames = 0;         // stop after this many rendered/consumed frames (0: no limit)
  bool json = false;           // print a JSON summary on stdout at the end
  std::string out_dir;         // headless render: where PNG frames and summary.json go; xr: left-eye PNGs
  uint32_t out_every = 30;     // xr with out_dir: save the left eye every this many frames
  bool render = true;          // headless: render frames (false: sim thread + snapshot consumer only)
  double tick_hz = 0;          // sim tick rate (0: the scene's)
  int width = 1280, height = 720;
  std::string record_path;     // record every input sample to this file (issue 7)
  std::string sim_priority = "realtime";  // sim thread: realtime (SCHED_FIFO) | high (nice -10) | normal; falls back
  std::string solver;          // integrator name (empty: the scene's)
  int threads = 0;             // the solver's threads, 1 or 2 (sim.threads; 0: the scene's)
  std::string device;          // cpu | gpu | auto (sim.device; empty: the scene's)
  std::string material;        // fabric preset name or file (empty: the scene's)
  uint32_t grid = 0;           // > 0 and no scene: a generated hanging cloth of grid x grid quads (127: 16,384 vertices)
  bool script = true;          // headless modes: drive the scene's scripted two-hand demo
  std::string script_name = "two-hand";  // headless frames: two-hand | tools (engine/tool_script.h)
  double debug_tick_sleep_ms = 0;  // hidden: every tick also sleeps this long (the slow-sim test)
  double max_fps = 0;          // window: pace frames to at most this rate (0: vsync only)
};

// The runtime for these options (scene file, or the generated --grid scene, or the built-in table) with
// `base`'s other settings. Throws SceneError for a missing or malformed scene file.
std::unique_ptr<Runtime> make_runtime(const RunOptions& options, RuntimeOptions base);
SimPriority parse_sim_priority(const std::string& name);

// Each mode lives in its own file; `weft run` dispatches (app/run_command.cpp).
int run_headless_sim(const RunOptions& options);     // app/run_headless.cpp (issue 4)
int run_headless_render(const RunOptions& options);  // app/run_render.cpp   (issue 5)
int run_window(const RunOptions& options);           // app/run_render.cpp   (issue 5)
int run_xr(const RunOptions& options);               // app/run_xr.cpp       (issue 6)

}  // namespace weft::app
