// `weft run --mode xr` (headset, graphics through XR_KHR_vulkan_enable2) and `--mode xr-headless`
// (XR_MND_headless: sessions, input and the sim without graphics), on the one runtime
// (engine/runtime.h): the scene's World runs on the sim thread, free on the wall clock; this thread
// only runs the XR frame loop. It pushes hand and tracker poses, grabs, releases and tracker clips
// into the runtime's one input seam (Runtime::input()), stamped on the runtime clock (an XR time T
// becomes clock_now() + (T - XR now): the session's XrSessionConfig::clock), and the eyes draw the
// newest snapshots interpolated to the frame's display time, never waiting for the sim; what the hands
// and trackers hold is the snapshot's (the sim's truth), never what was asked for. The scene sits in
// the stage space: its coordinates are the reference space's (floor at y = 0), shifted so the user
// stands at the scene's "stage" pose.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/run_options.h"
#include "app/run_summary.h"
#include "engine/frame_stats.h"
#include "engine/png_writer.h"
#include "engine/runtime.h"
#include "engine/snapshot_interpolation.h"
#include "xr/scene_eye_renderer.h"
#include "xr/xr_check.h"
#include "xr/xr_session.h"

namespace weft::app {

namespace {

// What the eyes draw: the runtime's two newest snapshots blended to the display time, held back to
// the runtime clock minus one tick (the sim cannot have published the display time yet, which is
// ahead of now; one tick behind now always has a snapshot on each side). Also measures how old the
// drawn cloth is, at draw time (the shared lag_ms) and at the display time (display_lag_ms).
class RuntimeEyeSource final : public xr::XrSnapshotSource {
 public:
  explicit RuntimeEyeSource(Runtime& runtime) : runtime_(runtime) {
    snapshot_.resize(runtime.scene().vertices);
  }
  const ClothSnapshot& snapshot_at(double display_time) override {
    const double now = runtime_.clock_now();
    const double t = std::min(display_time, now) - 1.0 / runtime_.scene().tick_hz;
    const double drawn = interpolate_snapshot(runtime_.snapshots(), t, snapshot_);
    lag_ = drawn >= 0 ? now - drawn : -1;
    if (drawn >= 0) display_lag_ms_.record((display_time - drawn) * 1e3), has_ = true;
    return snapshot_;
  }
  bool has_snapshot() const { return has_; }
  const ClothSnapshot& last() const { return snapshot_; }
  double lag() const { return lag_; }
  const LatencyHistogram& display_lag_ms() const { return display_lag_ms_; }

 private:
  Runtime& runtime_;
  ClothSnapshot snapshot_;
  double lag_ = -1;
  bool has_ = false;
  LatencyHistogram display_lag_ms_;
};

// The XR-specific keys, added to the shared run summary (app/run_summary.h).
void add_xr_keys(nlohmann::json& j, const xr::XrRunStats& s, uint64_t iterations) {
  j["runtime"] = s.runtime;
  j["system"] = s.system;
  j["interaction_profiles"] = s.interaction_profiles;
  j["session_states"] = s.session_states;
  j["frames_rendered"] = s.frames_rendered;
  j["iterations"] = iterations;
  j["hand_poses_received"] = s.hand_poses_received;
  j["head_poses_submitted"] = s.head_poses_submitted;
  j["grab_requests"] = s.grabs;
  j["haptic_pulses"] = s.haptic_pulses;
  j["tool_cycles"] = s.tool_cycles;
  j["tool_strokes"] = s.tool_strokes;
  j["tracker_poses_received"] = s.tracker_poses_received;
  j["trackers"] = s.trackers;
  j["replayed_hand_frames"] = s.replayed_hand_frames;
  j["replay_handoffs"] = s.replay_handoffs;
  j["extensions"] = s.extensions;
  j["reference_space"] = s.reference_space;
  j["rejected_profiles"] = s.rejected_profiles;
  j["instance_lost"] = s.instance_lost;
  j["depth_submitted"] = s.depth_submitted;
  j["vulkan_device"] = s.vulkan_device;
  j["validation"] = s.validation;
  j["validation_errors"] = s.validation_errors;
}

}  // namespace

int run_xr(const RunOptions& o) {
  const bool headless = o.mode == "xr-headless";
  // A missing or malformed scene fails here, before any XR call.
  std::unique_ptr<Runtime> rt = make_runtime(o, {});
  Runtime& runtime = *rt;
  const SceneInfo& scene = runtime.scene();
  RuntimeEyeSource source(runtime);
  xr::SceneEyeRenderer eyes(runtime.mesh(), scene.props, source);
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
  cfg.clock = [&runtime] { return runtime.clock_now(); };
  cfg.stage = scene.stage;
  cfg.tracker_roles = scene.tracker_roles;
  cfg.grab.radius = scene.grasp_radius;
  // The replayed hands reach for the cloth's near corners (tracked while they are not holding).
  cfg.replay.left_corner = scene.near_corner_rest[0];
  cfg.replay.right_corner = scene.near_corner_rest[1];

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
  std::fprintf(stderr, "weft: %s on %s (%s), %s space; '%s' (%zu vertices, %s) at %.0f Hz\n", o.mode.c_str(),
               st0.runtime.c_str(), st0.system.c_str(), st0.reference_space.c_str(), scene.name.c_str(),
               scene.vertices, scene.solver.c_str(), scene.tick_hz);

  runtime.start();
  FrameStats frames;
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto exit_asked = clock::time_point::max();
  uint64_t iterations = 0;
  int rc = 0;
  try {
    for (;;) {
      double t = -1;
      const uint64_t rendered_before = runner->stats().frames_rendered;
      if (!runner->iterate(runtime.input(), t)) break;
      if (t >= 0) {
        ++iterations;
        // Headless: no eyes; the snapshot is read here, as a renderer would, for the replay's corners.
        if (headless) source.snapshot_at(t);
        if (headless || runner->stats().frames_rendered > rendered_before) frames.frame_done(source.lag());
        if (source.has_snapshot()) {
          const auto& c = scene.near_corners;
          runner->track_replay_corners(source.last().position[c[0]], source.last().position[c[1]]);
          runner->observe_holding(source.last().hands[0].grabbing, source.last().hands[1].grabbing);
        }
      }
      const double elapsed = std::chrono::duration<double>(clock::now() - start).count();
      if (exit_asked == clock::time_point::max() &&
          ((o.seconds > 0 && elapsed >= o.seconds) || (o.frames > 0 && frames.frames >= o.frames))) {
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
  runtime.stop();
  const auto& st = runner->stats();
  if (st.instance_lost) std::fprintf(stderr, "weft: xr: the OpenXR runtime was lost; session closed\n");
  nlohmann::json j = run_summary(o.mode, runtime, frames);
  add_xr_keys(j, st, iterations);
  const LatencyHistogram& dl = source.display_lag_ms();
  j["display_lag_ms"] = {{"p50", dl.percentile(0.5)}, {"p99", dl.percentile(0.99)}, {"max", dl.max()}};
  if (!headless) {
    j["eye_render_ms_mean"] = eyes.frames_rendered() ? eyes.render_ms_total() / double(eyes.frames_rendered()) : 0.0;
    j["eye_render_ms_max"] = eyes.render_ms_max();
  }
  if (!o.out_dir.empty() && !headless) j["left_eye_pngs"] = pngs;
  print_run_summary(j);
  std::fprintf(stderr,
               "weft: xr: %llu hand poses (%llu replayed, %llu handoffs), %llu grab requests, %llu haptic "
               "pulses, depth layers %s, Vulkan validation %s (%llu errors)\n",
               (unsigned long long)st.hand_poses_received, (unsigned long long)st.replayed_hand_frames,
               (unsigned long long)st.replay_handoffs, (unsigned long long)st.grabs,
               (unsigned long long)st.haptic_pulses,
               st.depth_submitted ? "on" : "off", st.validation ? "on" : "off",
               (unsigned long long)st.validation_errors);
  if (o.json) std::printf("%s\n", j.dump(2).c_str());
  if (rc == 0 && st.validation_errors > 0) rc = 6;  // a validation error is a failure, as in the tests
  return rc;
}

}  // namespace weft::app
