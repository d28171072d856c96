#include <cstdio>
#include <cstdlib>

#include <filesystem>

#include "app/commands.h"
#include "app/run_options.h"
#include "sim/integrator.h"
#include "xr/xr_session.h"

namespace weft::app {

void register_run(CLI::App& app) {
  auto opts = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand("run", "Run the cloth runtime (XR, window or headless)");
  cmd->add_option("--mode", opts->mode, "auto | headless | window | xr | xr-headless")
      ->check(CLI::IsMember({"auto", "headless", "window", "xr", "xr-headless"}));
  cmd->add_option("--scene", opts->scene, "Scene JSON file (default: the built-in table scene); every mode");
  cmd->add_option("--seconds", opts->seconds, "Stop after this many seconds")->check(CLI::NonNegativeNumber);
  cmd->add_option("--frames", opts->frames, "Stop after this many frames");
  cmd->add_flag("--json", opts->json, "Print a JSON summary on stdout at the end");
  cmd->add_option("--out", opts->out_dir,
                  "Headless: directory for PNG frames and summary.json; xr: directory for left-eye PNGs");
  cmd->add_option("--out-every", opts->out_every, "xr with --out: save the left eye every N frames")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("!--no-render", opts->render, "Headless: the live sim thread and a 90 Hz snapshot consumer, no GPU");
  cmd->add_flag("!--no-script", opts->script, "Headless modes: no scripted two-hand demo (the cloth is left alone)");
  cmd->add_option("--script", opts->script_name, "Headless frames: two-hand (default) | tools (every tool once)")
      ->check(CLI::IsMember({"two-hand", "tools"}));
  cmd->add_option("--tick-hz", opts->tick_hz, "Simulation tick rate (default: the scene's, 240)")
      ->check(CLI::Range(60.0, 2000.0));
  cmd->add_option("--width", opts->width, "Image or window width")->check(CLI::Range(16, 8192));
  cmd->add_option("--height", opts->height, "Image or window height")->check(CLI::Range(16, 8192));
  cmd->add_option("--record", opts->record_path, "Window: record every input the sim applies to this pose stream");
  cmd->add_option("--sim-priority", opts->sim_priority, "Sim thread scheduling: normal | high | realtime")
      ->check(CLI::IsMember({"normal", "high", "realtime"}));
  cmd->add_option("--solver", opts->solver, "Integrator (default: the scene's): approx | cg | euler | rk4 | ...")
      ->check([](const std::string& name) {
        try {
          parse_integrator_kind(name);
          return std::string();
        } catch (const std::exception& e) {
          return std::string(e.what());
        }
      });
  cmd->add_option("--device", opts->device, "Where the step runs: cpu | gpu | auto (default: the scene's sim.device, cpu; docs/gpu.md)")
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  cmd->add_option("--threads", opts->threads,
                  "The solver's threads (default: the scene's sim.threads, 1): 2 splits the multigrid's fine level of "
                  "meshes of 8 192 vertices or more in two regions swept by two threads")
      ->check(CLI::Range(1, 2));
  cmd->add_option("--max-fps", opts->max_fps, "Window: pace frames to at most this rate (default: vsync only)")
      ->check(CLI::Range(1.0, 1000.0));
  cmd->add_option("--material", opts->material,
                  "Fabric preset (assets/materials: isotropic, cotton, denim, silk, wool_jersey) or file; every mode");
  cmd->add_option("--grid", opts->grid, "Without --scene: a generated hanging cloth of N x N quads (127: 16k vertices)")
      ->check(CLI::Range(1, 1024));
  // Hidden (empty group): makes every tick slow, to show that rendering never waits for the sim.
  cmd->add_option("--debug-tick-sleep-ms", opts->debug_tick_sleep_ms, "Every sim tick also sleeps this long")
      ->check(CLI::Range(0.0, 1000.0))
      ->group("");
  cmd->callback([opts] {
    RunOptions o = *opts;
    if (!o.record_path.empty() && o.mode != "window")
      throw CLI::ValidationError("--record", "records the window's mouse hands (--mode window); use `weft record` "
                                             "for the headless scripted session");
    if (!o.scene.empty() && !std::filesystem::exists(o.scene))
      throw CLI::ValidationError("--scene", "scene file '" + o.scene + "' does not exist");
    int rc = 0;
    if (o.mode == "headless") rc = o.render ? run_headless_render(o) : run_headless_sim(o);
    else if (o.mode == "window") rc = run_window(o);
    else if (o.mode == "xr" || o.mode == "xr-headless") rc = run_xr(o);
    else if (std::string why; xr::xr_runtime_available(why)) {
      std::fprintf(stderr, "weft: mode auto -> xr (%s)\n", why.c_str());
      o.mode = "xr";
      rc = run_xr(o);
    } else {
      const char* display = std::getenv("DISPLAY");
      if (display && *display) {
        std::fprintf(stderr, "weft: mode auto -> window (DISPLAY=%s; no xr: %s)\n", display, why.c_str());
        rc = run_window(o);
      } else {
        std::fprintf(stderr, "weft: mode auto -> headless (no DISPLAY; no xr: %s)\n", why.c_str());
        rc = run_headless_render(o);
      }
    }
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace weft::app
