// `weft run --mode xr` (headset, graphics through XR_KHR_vulkan_enable2) and `--mode xr-headless`
// (XR_MND_headless: sessions, input and the sim without graphics). The sim steps on this thread at
// the fixed tick, catching up to the XR clock (for a frame: its predicted display time, before the
// eyes are drawn); XR input reaches the World through the engine's DirectWorldInput, the same path
// as the desktop mouse. The eyes are drawn by the desktop's Renderer (SceneEyeRenderer).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>

#include "app/run_options.h"
#include "engine/direct_world_input.h"
#include "engine/png_writer.h"
#include "engine/snapshot_builder.h"
#include "sim/mesh_generators.h"
#include "sim/world.h"
#include "xr/engine_input_sink.h"
#include "xr/scene_eye_renderer.h"
#include "xr/xr_check.h"
#include "xr/xr_session.h"

namespace weft::app {

namespace {

// A 0.6 m square cloth hanging from its top corners, 0.7 m in front of the stage origin, top at 1.6 m
// and hem at 1.0 m: within a standing user's view (a simulated headset's eyes are at about 1.6 m)
// down to the hem corners the hands reach for.
World make_xr_scene(double tick_hz, glm::vec3& hem_left, glm::vec3& hem_right) {
  GridSpec g;
  g.width = g.height = 0.6f;
  g.columns = g.rows = 20;
  Mesh mesh = make_grid(g);
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(-0.3f, 1.0f, -0.7f)));
  const uint32_t cols = g.columns + 1;
  const std::vector<uint32_t> pins = {g.rows * cols, g.rows * cols + g.columns};  // top row corners
  WorldConfig wc;
  wc.tick_hz = tick_hz;
  hem_left = {-0.3f, 1.0f, -0.7f};
  hem_right = {0.3f, 1.0f, -0.7f};
  return World(build_cloth_model(mesh, Material{}, pins), wc);
}

// The World on this thread: stepped in fixed ticks up to each XR time, and the snapshot the eyes draw.
class XrSim final : public xr::XrSnapshotSource {
 public:
  explicit XrSim(World& world) : world_(world), input_(world), sink_(input_) {}

  // Catch up to the XR time in fixed ticks; at most 0.1 s per call after a stall.
  void advance_to(double t) {
    if (sim_time_ < 0) sim_time_ = t;
    const double h = world_.time_step();
    for (int n = 0; sim_time_ + h <= t && n < int(0.1 / h); ++n) {
      input_.before_step();
      world_.step();
      sim_time_ += h;
      ++ticks_;
    }
    if (sim_time_ + h <= t) sim_time_ = t;  // drop the backlog instead of spiralling
  }
  const ClothSnapshot& snapshot_at(double t) override {
    advance_to(t);
    fill_snapshot(world_, snapshot_);
    input_.fill_devices(snapshot_);  // hand gizmos and per-hand grasp highlights
    sink_.fill_trackers(snapshot_);
    return snapshot_;
  }
  xr::XrInputSink& sink() { return sink_; }
  uint64_t ticks() const { return ticks_; }

 private:
  World& world_;
  DirectWorldInput input_;
  xr::EngineInputSink sink_;
  ClothSnapshot snapshot_;
  double sim_time_ = -1;  // the world's time on the XR clock; set by the first timed iteration
  uint64_t ticks_ = 0;
};

nlohmann::json summary(const std::string& mode, const xr::XrRunStats& s, uint64_t ticks, uint64_t iterations) {
  nlohmann::json j;
  j["mode"] = mode;
  j["runtime"] = s.runtime;
  j["system"] = s.system;
  j["interaction_profiles"] = s.interaction_profiles;
  j["session_states"] = s.session_states;
  j["frames_rendered"] = s.frames_rendered;
  j["hand_poses_received"] = s.hand_poses_received;
  j["grabs"] = s.grabs;
  j["invalid_poses"] = s.invalid_poses;
  j["releases"] = s.releases;
  j["haptic_pulses"] = s.haptic_pulses;
  j["tracker_poses_received"] = s.tracker_poses_received;
  j["trackers"] = s.trackers;
  j["replayed_hand_frames"] = s.replayed_hand_frames;
  j["extensions"] = s.extensions;
  j["reference_space"] = s.reference_space;
  j["rejected_profiles"] = s.rejected_profiles;
  j["instance_lost"] = s.instance_lost;
  j["depth_submitted"] = s.depth_submitted;
  j["vulkan_device"] = s.vulkan_device;
  j["validation"] = s.validation;
  j["validation_errors"] = s.validation_errors;
  j["sim_ticks"] = ticks;
  j["iterations"] = iterations;
  return j;
}

}  // namespace

int run_xr(const RunOptions& o) {
  const bool headless = o.mode == "xr-headless";
  glm::vec3 hem_left, hem_right;
  World world = make_xr_scene(o.tick_hz, hem_left, hem_right);
  XrSim sim(world);
  SceneProps props;  // floor at 0 (the stage's floor), no table
  xr::SceneEyeRenderer eyes(make_snapshot_mesh(world.model()), props, sim);
  uint64_t pngs = 0;
  if (!o.out_dir.empty() && !headless) {
    std::filesystem::create_directories(o.out_dir);
    eyes.capture_left_eye(o.out_every, [&](const xr::EyeCapture& c) {
      char name[64];
      std::snprintf(name, sizeof name, "xr_left_%05llu.png", (unsigned long long)c.frame);
      write_png((std::filesystem::path(o.out_dir) / name).string(), *c.rgba, c.extent.width, c.extent.height);
      ++pngs;
    });
  }
  xr::XrSessionConfig cfg;
  cfg.headless = headless;
  cfg.renderer = &eyes;
  cfg.replay.left_corner = hem_left;
  cfg.replay.right_corner = hem_right;

  std::unique_ptr<xr::XrSessionRunner> runner;
  try {
    runner = std::make_unique<xr::XrSessionRunner>(cfg);
    runner->create_session();
  } catch (const xr::XrError& e) {
    std::fprintf(stderr, "weft: %s unavailable: %s\n", o.mode.c_str(), xr::describe_xr_unavailable(e.result()).c_str());
    return 4;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft: %s unavailable: %s\n", o.mode.c_str(), e.what());
    return 4;
  }
  const auto& st0 = runner->stats();
  std::fprintf(stderr, "weft: %s on %s (%s), %s space\n", o.mode.c_str(), st0.runtime.c_str(), st0.system.c_str(),
               st0.reference_space.c_str());

  xr::XrInputSink& sink = sim.sink();
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto exit_asked = clock::time_point::max();
  uint64_t iterations = 0;
  int rc = 0;
  try {
    for (;;) {
      double t = -1;
      if (!runner->iterate(sink, t)) break;
      if (t >= 0) {
        ++iterations;
        sim.advance_to(t);  // a drawn frame already stepped to t; headless and skipped frames step here
      }
      const uint64_t frames = headless ? iterations : runner->stats().frames_rendered;
      const double elapsed = std::chrono::duration<double>(clock::now() - start).count();
      if (exit_asked == clock::time_point::max() &&
          ((o.seconds > 0 && elapsed >= o.seconds) || (o.frames > 0 && frames >= o.frames))) {
        runner->request_exit();
        exit_asked = clock::now();
      }
      if (exit_asked != clock::time_point::max() && clock::now() - exit_asked > std::chrono::seconds(5)) {
        std::fprintf(stderr, "weft: xr: the runtime did not end the session within 5 s of the exit request\n");
        break;
      }
      // Headless has no xrWaitFrame to pace it; idle sessions only poll.
      if (headless || t < 0) std::this_thread::sleep_for(std::chrono::milliseconds(11));
    }
  } catch (const xr::XrError& e) {
    // A runtime that dies mid-session (SteamVR closed, Monado killed) ends here, cleanly.
    const bool lost = e.result() == XR_ERROR_INSTANCE_LOST || e.result() == XR_ERROR_SESSION_LOST;
    std::fprintf(stderr, "weft: xr: %s%s\n", lost ? "the OpenXR runtime was lost mid-session: " : "", e.what());
    rc = 5;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft: xr: %s\n", e.what());
    rc = 5;
  }
  const double wall_s = std::chrono::duration<double>(clock::now() - start).count();
  const auto& st = runner->stats();
  const uint64_t ticks = sim.ticks();
  if (st.instance_lost) std::fprintf(stderr, "weft: xr: the OpenXR runtime was lost; session closed\n");
  std::fprintf(stderr, "weft: xr: %llu frames, %llu hand poses, %llu grabs, %llu invalid poses, %llu sim ticks\n",
               (unsigned long long)st.frames_rendered, (unsigned long long)st.hand_poses_received,
               (unsigned long long)st.grabs, (unsigned long long)st.invalid_poses, (unsigned long long)ticks);
  if (!headless)
    std::fprintf(stderr,
                 "weft: xr: %.1f frames/s over %.1f s (eyes %.1f ms/frame mean), depth layers %s, Vulkan validation "
                 "%s (%llu errors)\n",
                 wall_s > 0 ? double(st.frames_rendered) / wall_s : 0.0, wall_s,
                 eyes.frames_rendered() ? eyes.render_ms_total() / double(eyes.frames_rendered()) : 0.0,
                 st.depth_submitted ? "on" : "off",
                 st.validation ? "on" : "off", (unsigned long long)st.validation_errors);
  if (o.json) {
    nlohmann::json j = summary(o.mode, st, ticks, iterations);
    j["wall_seconds"] = wall_s;
    j["frames_per_second"] = wall_s > 0 ? double(st.frames_rendered) / wall_s : 0.0;
    if (!headless) {
      j["eye_render_ms_mean"] = eyes.frames_rendered() ? eyes.render_ms_total() / double(eyes.frames_rendered()) : 0.0;
      j["eye_render_ms_max"] = eyes.render_ms_max();
    }
    if (!o.out_dir.empty() && !headless) j["left_eye_pngs"] = pngs;
    std::printf("%s\n", j.dump(2).c_str());
  }
  if (rc == 0 && st.validation_errors > 0) rc = 6;  // a validation error is a failure, as in the tests
  return rc;
}

}  // namespace weft::app
