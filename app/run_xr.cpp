// `weft run --mode xr` (headset, graphics through XR_KHR_vulkan_enable2) and `--mode xr-headless`
// (XR_MND_headless: sessions, input and the sim without graphics). The sim steps on this thread at
// the fixed tick, catching up to the XR clock each iteration; XR input reaches the World through
// WorldInputSink. Eyes are cleared by ClearEyeRenderer until the desktop renderer is connected.
#include <chrono>
#include <cstdio>
#include <thread>

#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>

#include "app/run_options.h"
#include "sim/mesh_generators.h"
#include "sim/world.h"
#include "xr/eye_renderer.h"
#include "xr/input_sink.h"
#include "xr/xr_check.h"
#include "xr/xr_session.h"

namespace weft::app {

namespace {

// A 0.6 m square cloth hanging from its top corners, 0.5 m in front of the stage origin, hem at 0.9 m.
World make_xr_scene(double tick_hz, glm::vec3& hem_left, glm::vec3& hem_right) {
  GridSpec g;
  g.width = g.height = 0.6f;
  g.columns = g.rows = 20;
  Mesh mesh = make_grid(g);
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(-0.3f, 0.9f, -0.5f)));
  const uint32_t cols = g.columns + 1;
  const std::vector<uint32_t> pins = {g.rows * cols, g.rows * cols + g.columns};  // top row corners
  WorldConfig wc;
  wc.tick_hz = tick_hz;
  hem_left = {-0.3f, 0.9f, -0.5f};
  hem_right = {0.3f, 0.9f, -0.5f};
  return World(build_cloth_model(mesh, Material{}, pins), wc);
}

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
  j["sim_ticks"] = ticks;
  j["iterations"] = iterations;
  return j;
}

}  // namespace

int run_xr(const RunOptions& o) {
  const bool headless = o.mode == "xr-headless";
  xr::ClearEyeRenderer clear;
  xr::XrSessionConfig cfg;
  cfg.headless = headless;
  cfg.renderer = &clear;
  glm::vec3 hem_left, hem_right;
  World world = make_xr_scene(o.tick_hz, hem_left, hem_right);
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

  xr::WorldInputSink sink(world);
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto exit_asked = clock::time_point::max();
  double sim_time = -1;  // the world's time on the XR clock; set by the first timed iteration
  uint64_t ticks = 0, iterations = 0;
  int rc = 0;
  try {
    for (;;) {
      double t = -1;
      if (!runner->iterate(sink, t)) break;
      if (t >= 0) {
        ++iterations;
        if (sim_time < 0) sim_time = t;
        // Catch up to the XR time in fixed ticks; at most 0.1 s per iteration after a stall.
        for (int n = 0; sim_time + world.time_step() <= t && n < int(0.1 * o.tick_hz); ++n) {
          world.step();
          sim_time += world.time_step();
          ++ticks;
        }
        if (sim_time + world.time_step() <= t) sim_time = t;  // drop the backlog instead of spiralling
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
  const auto& st = runner->stats();
  if (st.instance_lost) std::fprintf(stderr, "weft: xr: the OpenXR runtime was lost; session closed\n");
  std::fprintf(stderr, "weft: xr: %llu frames, %llu hand poses, %llu grabs, %llu invalid poses, %llu sim ticks\n",
               (unsigned long long)st.frames_rendered, (unsigned long long)st.hand_poses_received,
               (unsigned long long)st.grabs, (unsigned long long)st.invalid_poses, (unsigned long long)ticks);
  if (o.json) std::printf("%s\n", summary(o.mode, st, ticks, iterations).dump(2).c_str());
  return rc;
}

}  // namespace weft::app
