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
#include "engine/desktop_app.h"
#include "engine/headless_demo.h"
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

  TableSceneSpec spec;
  spec.tick_hz = options.tick_hz;
  spec.scene_file = options.scene;
  HeadlessDemo demo(spec);
  VulkanContextOptions vk;
  vk.validation = validation_requested(false);
  VulkanContext ctx(vk);
  ctx.create_device();
  Renderer renderer(ctx, OffscreenTarget::kFormat, make_snapshot_mesh(demo.world().model()), demo.scene().props);
  OffscreenTarget target(ctx, {uint32_t(options.width), uint32_t(options.height)});
  const RenderView view = demo.scene().camera.view(float(options.width) / float(options.height));
  std::fprintf(stderr, "weft: headless render on %s, %llu frames of %dx%d to %s%s\n", ctx.device_name().c_str(),
               static_cast<unsigned long long>(frames), options.width, options.height, out.c_str(),
               ctx.validation_enabled() ? " (validation on)" : "");

  // Frames sample the whole script evenly, whatever their number.
  const double duration = demo.script().duration();
  ClothSnapshot snap;
  std::vector<double> sim_ms, render_ms, png_ms;
  nlohmann::json frame_list = nlohmann::json::array();
  const auto wall0 = Clock::now();
  for (uint64_t f = 0; f < frames; ++f) {
    const double t = duration * double(f + 1) / double(frames);
    auto t0 = Clock::now();
    demo.advance_to(t);
    demo.snapshot(snap);
    sim_ms.push_back(ms_since(t0));
    RenderSettings settings;
    settings.time = float(demo.time());
    t0 = Clock::now();
    const std::vector<uint8_t>& px = target.render(renderer, snap, view, settings);
    render_ms.push_back(ms_since(t0));
    char name[32];
    std::snprintf(name, sizeof(name), "frame_%05llu.png", static_cast<unsigned long long>(f));
    t0 = Clock::now();
    write_png((out / name).string(), px, uint32_t(options.width), uint32_t(options.height));
    png_ms.push_back(ms_since(t0));
    frame_list.push_back({{"file", name}, {"time", demo.time()}, {"phase", TwoHandScript::phase(demo.time())}});
    if ((f + 1) % 20 == 0 || f + 1 == frames)
      std::fprintf(stderr, "weft: frame %llu/%llu (t = %.2f s, %s)\n", static_cast<unsigned long long>(f + 1),
                   static_cast<unsigned long long>(frames), demo.time(), TwoHandScript::phase(demo.time()));
  }

  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const glm::vec3& p : demo.world().state().position) lo = glm::min(lo, p), hi = glm::max(hi, p);
  nlohmann::json summary = {
      {"mode", "headless"},
      {"device", ctx.device_name()},
      {"frames", frames},
      {"width", options.width},
      {"height", options.height},
      {"vertices", demo.world().model().vertex_count()},
      {"sim_time_s", demo.time()},
      {"ticks", demo.world().state().step_count},
      {"wall_s", ms_since(wall0) / 1000.0},
      {"sim_ms_per_frame", timing_stats(sim_ms)},
      {"render_ms", timing_stats(render_ms)},
      {"png_ms", timing_stats(png_ms)},
      {"validation", {{"enabled", ctx.validation_enabled()}, {"errors", ctx.validation_errors()},
                      {"warnings", ctx.validation_warnings()}}},
      {"invalid_poses", demo.world().invalid_pose_count()},
      {"final_cloth_bounds", {{"min", {lo.x, lo.y, lo.z}}, {"max", {hi.x, hi.y, hi.z}}}},
      {"out_dir", out.string()},
      {"frame_files", frame_list},
  };
  std::ofstream(out / "summary.json") << summary.dump(2) << "\n";
  if (options.json) {
    summary.erase("frame_files");
    std::printf("%s\n", summary.dump(2).c_str());
  } else {
    std::fprintf(stderr, "weft: wrote %llu frames and summary.json to %s; render %.1f ms/frame (mean)\n",
                 static_cast<unsigned long long>(frames), out.c_str(), summary["render_ms"]["mean"].get<double>());
  }
  return ctx.validation_errors() == 0 ? 0 : 4;
}

int run_window(const RunOptions& options) {
  DesktopAppOptions o;
  o.width = options.width;
  o.height = options.height;
  o.tick_hz = options.tick_hz;
  o.scene_file = options.scene;
  o.record_path = options.record_path;
  o.validation = validation_requested(false);
  DesktopApp desktop(o);
  std::fprintf(stderr, "weft: window on %s; press H for help\n", desktop.device_name().c_str());
  print_desktop_help();
  const auto t0 = Clock::now();
  uint64_t frames = 0;
  while (desktop.frame()) {
    ++frames;
    if (options.frames > 0 && frames >= options.frames) break;
    if (options.seconds > 0 && ms_since(t0) > options.seconds * 1000.0) break;
  }
  if (!options.record_path.empty()) desktop.finish_recording();
  if (options.json) {
    nlohmann::json summary = {{"mode", "window"}, {"frames", frames}, {"wall_s", ms_since(t0) / 1000.0},
                              {"validation_errors", desktop.validation_errors()}};
    std::printf("%s\n", summary.dump(2).c_str());
  }
  return desktop.validation_errors() == 0 ? 0 : 4;
}

}  // namespace weft::app
