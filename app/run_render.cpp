// `weft run --mode headless` (render the scripted demo to PNG files) and `weft run --mode window`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/run_options.h"
#include "app/run_summary.h"
#include "engine/desktop_app.h"
#include "engine/scripted_session.h"
#include "engine/offscreen_target.h"
#include "engine/png_writer.h"
#include "engine/renderer.h"
#include "engine/vulkan_context.h"

namespace weft::app {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

nlohmann::json timing_stats(std::vector<double> ms) {
  if (ms.empty()) return nullptr;
  std::sort(ms.begin(), ms.end());
  const double mean = std::accumulate(ms.begin(), ms.end(), 0.0) / double(ms.size());
  return {{"mean", mean}, {"p50", ms[ms.size() / 2]}, {"max", ms.back()}};
}

}  // namespace

int run_headless_render(const RunOptions& options) {
  const uint64_t frames = options.frames > 0 ? options.frames : 120;
  const std::filesystem::path out = options.out_dir.empty() ? "weft_frames" : options.out_dir;
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) {
    std::fprintf(stderr, "weft: cannot create %s: %s\n", out.c_str(), ec.message().c_str());
    return 2;
  }
  // Offline: the sim thread in lockstep with the script, so the frames are the same on every machine.
  RuntimeOptions ro;
  ro.lockstep = true;
  ScriptedSession session(make_runtime(options, ro), options.script,
                          options.script_name == "tools" ? SessionScript::Tools : SessionScript::TwoHand);
  Runtime& runtime = session.runtime();
  VulkanContextOptions vk;
  vk.validation = validation_requested(false);
  VulkanContext ctx(vk);
  ctx.create_device();
  Renderer renderer(ctx, OffscreenTarget::kFormat, runtime.mesh(), runtime.scene().props);
  OffscreenTarget target(ctx, {uint32_t(options.width), uint32_t(options.height)});
  const RenderView view = runtime.scene().camera.view(float(options.width) / float(options.height));
  std::fprintf(stderr, "weft: headless render of '%s' (%s) on %s, %llu frames of %dx%d to %s%s\n",
               runtime.scene().name.c_str(), runtime.scene().solver.c_str(), ctx.device_name().c_str(),
               static_cast<unsigned long long>(frames), options.width, options.height, out.c_str(),
               ctx.validation_enabled() ? " (validation on)" : "");
  print_device_line(runtime.scene());

  // Frames sample the script (plus 1 s to settle), or --seconds of sim time, evenly whatever their number.
  const double duration = options.seconds > 0 ? options.seconds : session.duration() + 1.0;
  std::vector<double> render_ms, png_ms;
  FrameStats frame_stats;
  nlohmann::json frame_list = nlohmann::json::array();
  for (uint64_t f = 0; f < frames; ++f) {
    session.advance_to(duration * double(f + 1) / double(frames));
    const ClothSnapshot& snap = session.snapshot();
    RenderSettings settings;
    settings.time = float(snap.sim_time);
    auto t0 = Clock::now();
    const std::vector<uint8_t>& px = target.render(renderer, snap, view, settings);
    render_ms.push_back(ms_since(t0));
    char name[32];
    std::snprintf(name, sizeof(name), "frame_%05llu.png", static_cast<unsigned long long>(f));
    t0 = Clock::now();
    write_png((out / name).string(), px, uint32_t(options.width), uint32_t(options.height));
    png_ms.push_back(ms_since(t0));
    frame_stats.frame_done(-1);
    frame_list.push_back({{"file", name}, {"time", snap.sim_time}, {"phase", TwoHandScript::phase(snap.sim_time)}});
    if ((f + 1) % 20 == 0 || f + 1 == frames)
      std::fprintf(stderr, "weft: frame %llu/%llu (t = %.2f s, %s)\n", static_cast<unsigned long long>(f + 1),
                   static_cast<unsigned long long>(frames), snap.sim_time, TwoHandScript::phase(snap.sim_time));
  }
  session.finish();

  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const glm::vec3& p : runtime.world().state().position) lo = glm::min(lo, p), hi = glm::max(hi, p);
  nlohmann::json summary = run_summary("headless", runtime, frame_stats);
  summary["device"] = ctx.device_name();
  summary["width"] = options.width;
  summary["height"] = options.height;
  summary["render_ms"] = timing_stats(render_ms);
  summary["png_ms"] = timing_stats(png_ms);
  summary["validation"] = {{"enabled", ctx.validation_enabled()}, {"errors", ctx.validation_errors()},
                           {"warnings", ctx.validation_warnings()}};
  summary["final_cloth_bounds"] = {{"min", {lo.x, lo.y, lo.z}}, {"max", {hi.x, hi.y, hi.z}}};
  summary["out_dir"] = out.string();
  summary["frame_files"] = frame_list;
  std::ofstream(out / "summary.json") << summary.dump(2) << "\n";
  if (options.json) {
    summary.erase("frame_files");
    std::printf("%s\n", summary.dump(2).c_str());
  } else {
    print_run_summary(summary);
    std::fprintf(stderr, "weft: wrote %llu frames and summary.json to %s; render %.1f ms/frame (mean)\n",
                 static_cast<unsigned long long>(frames), out.c_str(), summary["render_ms"]["mean"].get<double>());
  }
  return ctx.validation_errors() == 0 ? 0 : 4;
}

int run_window(const RunOptions& options) {
  DesktopAppOptions o;
  o.width = options.width;
  o.height = options.height;
  o.runtime.scene_file = options.scene;
  o.runtime.solver = options.solver;
  o.runtime.threads = options.threads;
  o.runtime.device = options.device;
  o.runtime.material = options.material;
  o.runtime.tick_hz = options.tick_hz;
  o.runtime.priority = parse_sim_priority(options.sim_priority);
  o.runtime.debug_tick_sleep_ms = options.debug_tick_sleep_ms;
  o.record_path = options.record_path;
  o.max_fps = options.max_fps;
  o.validation = validation_requested(false);
  DesktopApp desktop(o);
  std::fprintf(stderr, "weft: window on %s, scene '%s' (%s); press H for help\n", desktop.device_name().c_str(),
               desktop.runtime().scene().name.c_str(), desktop.runtime().scene().solver.c_str());
  print_device_line(desktop.runtime().scene());
  print_desktop_help();
  const auto t0 = Clock::now();
  uint64_t frames = 0;
  while (desktop.frame()) {
    ++frames;
    if (options.frames > 0 && frames >= options.frames) break;
    if (options.seconds > 0 && ms_since(t0) > options.seconds * 1000.0) break;
  }
  desktop.finish();
  nlohmann::json summary = run_summary("window", desktop.runtime(), desktop.frame_stats());
  summary["device"] = desktop.device_name();
  summary["validation_errors"] = desktop.validation_errors();
  if (!options.record_path.empty()) summary["recorded"] = options.record_path;
  if (options.json) std::printf("%s\n", summary.dump(2).c_str());
  else print_run_summary(summary);
  return desktop.validation_errors() == 0 ? 0 : 4;
}

}  // namespace weft::app
