// Runs against whatever OpenXR runtime the loader finds (XR_RUNTIME_JSON, or an installed
// active_runtime.json). With none, the test cases are skipped, never passed: WEFT_SKIP_IF, and ctest
// reports them Skipped (tests/skip.h).
// Monado's simulated headset runs them with no display or GPU (docs/xr.md).
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/snapshot_builder.h"
#include "engine/input_sink.h"
#include "eye_pixels.h"
#include "runtime_probe.h"
#include "sim/mesh_generators.h"
#include "sim/pose_track.h"
#include "tests/skip.h"
#include "xr/scene_eye_renderer.h"
#include "xr/xr_check.h"
#include "xr/xr_session.h"

using namespace weft;
using namespace weft::xr;

namespace {

const std::string kNoRuntime = test::no_runtime_reason();  // why the runtime cases skip, if they do

// A recording fake of the one input seam: counts what the session sends and what of it the sim would refuse
// as invalid whatever came before (flagged, non-finite, non-unit quaternion: sim/pose_track.h).
struct CountingSink final : InputSink {
  uint64_t poses = 0, invalid = 0, grabs = 0, releases = 0, attaches = 0;
  void submit_pose(const PoseSample& s) override {
    ++poses;
    if (check_pose_sample(s) != PoseRejection::Accepted) ++invalid;
  }
  void grab(Hand, const Pose&, float) override { ++grabs; }
  void release(Hand) override { ++releases; }
  void attach(Device, const Pose&, float) override { ++attaches; }
  void detach(Device) override {}
  void reset() override {}
  void reset_device(Device) override {}
  void tool(const ToolAction&) override {}
};

// A 0.4 m curtain 1 m ahead of the stage origin at eye height (a simulated or standing user's head
// is near 1.6 m there), pinned at its top corners.
World curtain() {
  GridSpec g;
  g.width = g.height = 0.4f;
  g.columns = g.rows = 8;
  Mesh mesh = make_grid(g);
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(-0.2f, 1.4f, -1.f)));
  return World(build_cloth_model(mesh, Material{}, {g.rows * (g.columns + 1), g.rows * (g.columns + 1) + g.columns}),
               WorldConfig{});
}

// What the eyes draw: the world as it stands (the test drives no sim steps).
struct CurtainSource final : XrSnapshotSource {
  explicit CurtainSource(const World& w) : world(w) {}
  const World& world;
  ClothSnapshot snap;
  uint64_t asked = 0;
  const ClothSnapshot& snapshot_at(double) override {
    ++asked;
    fill_snapshot(world, snap);
    return snap;
  }
};

// Iterates until stop() or the deadline, then asks to exit and drains until the runtime ends it.
template <typename Stop>
void run_session(XrSessionRunner& r, InputSink& sink, bool headless, double deadline_s, Stop stop) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - t0).count(); };
  bool asked = false;
  for (double t = -1; r.iterate(sink, t); t = -1) {
    if (!asked && (stop() || elapsed() > deadline_s)) {
      r.request_exit();
      asked = true;
    }
    if (elapsed() > deadline_s + 5) break;
    if (headless || t < 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

TEST_CASE("OpenXR runtime: a headless session runs states - bindings and the replayed grab path") {
  WEFT_SKIP_IF(!kNoRuntime.empty(), kNoRuntime);
  XrSessionConfig cfg;
  cfg.headless = true;
  cfg.replay.period_s = 1.0;
  cfg.replay.left_corner = {0.f, 0.f, 0.f};
  cfg.replay.right_corner = {0.4f, 0.f, 0.f};
  std::unique_ptr<XrSessionRunner> r;
  try {
    r = std::make_unique<XrSessionRunner>(cfg);
  } catch (const XrError& e) {
    // A runtime without XR_MND_headless (SteamVR) must say so, not fail elsewhere.
    MESSAGE("runtime has no headless mode: " << describe_xr_unavailable(e.result()));
    CHECK(e.result() == XR_ERROR_EXTENSION_NOT_PRESENT);
    return;
  }
  r->create_session();
  CountingSink sink;
  run_session(*r, sink, true, 4.0, [&] { return r->stats().grabs >= 2 && r->stats().releases >= 2; });
  const XrRunStats& s = r->stats();
  CAPTURE(s.runtime);
  CHECK(r->done());
  CHECK(s.rejected_profiles.empty());
  REQUIRE(s.session_states.size() >= 3);
  CHECK(s.session_states.front() == "XR_SESSION_STATE_IDLE");
  CHECK(s.session_states[1] == "XR_SESSION_STATE_READY");
  CHECK(s.session_states.back() == "XR_SESSION_STATE_EXITING");
  CHECK(s.frames_rendered == 0);
  CHECK(s.hand_poses_received > 0);
  CHECK(s.grabs >= 2);
  CHECK(s.head_poses_submitted > 0);  // the headset's pose, every iteration it is located (Device::Head)
  CHECK(sink.poses == s.hand_poses_received + s.tracker_poses_received + s.head_poses_submitted);
  CHECK(sink.grabs == s.grabs);
  CHECK(sink.invalid == 0);
}

namespace {
void graphics_session(bool depth_layers) {
  World world = curtain();
  CurtainSource source(world);
  RenderSettings strain;
  strain.strain_view = true;
  SceneEyeRenderer eyes(make_snapshot_mesh(world.model()), SceneProps{}, source, strain);
  std::vector<EyeCapture> captures;
  std::vector<std::vector<uint8_t>> pixels;
  eyes.capture_left_eye(5, [&](const EyeCapture& c) {
    captures.push_back(c);
    pixels.push_back(*c.rgba);
  });
  XrSessionConfig cfg;
  cfg.renderer = &eyes;
  cfg.validation = true;
  cfg.depth_layers = depth_layers;
  XrSessionRunner r(cfg);
  r.create_session();
  CountingSink sink;
  run_session(r, sink, false, 8.0, [&] { return r.stats().frames_rendered >= 10; });
  const XrRunStats& s = r.stats();
  CAPTURE(s.runtime);
  CAPTURE(s.vulkan_device);
  CHECK(r.done());
  CHECK(s.frames_rendered >= 10);
  CHECK(eyes.frames_rendered() == s.frames_rendered);
  CHECK(source.asked == s.frames_rendered);
  CHECK(s.rejected_profiles.empty());
  CHECK(s.session_states.back() == "XR_SESSION_STATE_EXITING");
  CHECK(sink.invalid == 0);
  CHECK(s.validation);
  CHECK(s.validation_errors == 0);
  const bool depth_offered =
      std::find(s.extensions.begin(), s.extensions.end(), "XR_KHR_composition_layer_depth") != s.extensions.end();
  CHECK(s.depth_submitted == (depth_offered && depth_layers));
  CHECK(eyes.uses_runtime_depth() == s.depth_submitted);
  REQUIRE(captures.size() >= 2);
  // Each read-back left eye shows the curtain where it projects, and sky above the horizon.
  for (size_t i = 0; i < captures.size(); ++i) {
    const EyeCapture& c = captures[i];
    const auto& px = pixels[i];
    CAPTURE(c.frame);
    CAPTURE(c.view.eye.y);
    REQUIRE(px.size() == size_t(c.extent.width) * c.extent.height * 4);
    const glm::vec2 size(float(c.extent.width), float(c.extent.height));
    const glm::vec3 mid = project_to_pixel(c.view, {0.f, 1.6f, -1.f}, size);
    REQUIRE(mid.x >= 0.f);
    REQUIRE(mid.x < size.x);
    REQUIRE(mid.y >= 0.f);
    REQUIRE(mid.y < size.y);
    CHECK(test::is_cloth_green(test::eye_pixel(px, c.extent, int(mid.x), int(mid.y))));
    const glm::vec3 above = project_to_pixel(c.view, {0.f, 3.5f, -1.f}, size);  // well above the curtain
    if (above.y >= 0.f) CHECK(test::is_sky(test::eye_pixel(px, c.extent, int(mid.x), int(above.y))));
    CHECK(test::is_sky(test::eye_pixel(px, c.extent, 1, 1)));
    const int green = test::count_cloth_green(px, c.extent);
    CHECK(green > int(c.extent.width * c.extent.height) / 50);
    CHECK(green < int(c.extent.width * c.extent.height) / 4);
  }
}
}  // namespace

TEST_CASE("OpenXR runtime: a graphics session draws the cloth into both eyes through the renderer") {
  WEFT_SKIP_IF(!kNoRuntime.empty(), kNoRuntime);
  SUBCASE("with depth layers when offered") { graphics_session(true); }
  SUBCASE("without depth layers") { graphics_session(false); }
}
