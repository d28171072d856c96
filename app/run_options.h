#pragma once
// Options of `weft run`, shared by every mode (headless sim, headless render, window, XR).
#include <cstdint>
#include <string>

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
  double tick_hz = 240;        // sim tick rate
  int width = 1280, height = 720;
  std::string record_path;     // record every input sample to this file (issue 7)
  std::string sim_priority = "realtime";  // sim thread: realtime (SCHED_FIFO) | high (nice -10) | normal; falls back
  std::string solver;          // approx | cg | euler | rk4 (empty: the mode's or scene's default)
  uint32_t grid = 127;         // headless sim: quads per side of the default hanging cloth (127: 16,384 vertices)
};

// Each mode lives in its own file; `weft run` dispatches (app/run_command.cpp).
int run_headless_sim(const RunOptions& options);     // app/run_headless.cpp (issue 4)
int run_headless_render(const RunOptions& options);  // app/run_render.cpp   (issue 5)
int run_window(const RunOptions& options);           // app/run_render.cpp   (issue 5)
int run_xr(const RunOptions& options);               // app/run_xr.cpp       (issue 6)

}  // namespace weft::app
