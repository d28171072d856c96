// Runs against whatever OpenXR runtime the loader finds (XR_RUNTIME_JSON, or an installed
// active_runtime.json). With none, the test cases are skipped, never passed: they carry
// doctest::skip, and ctest reports them Skipped (tests/CMakeLists.txt, SKIP_REGULAR_EXPRESSION).
// Monado's simulated headset runs them with no display or GPU (docs/xr.md).
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "sim/mesh_generators.h"
#include "xr/eye_renderer.h"
#include "xr/input_sink.h"
#include "xr/xr_check.h"
#include "xr/xr_session.h"

using namespace weft;
using namespace weft::xr;

namespace {

// Empty when a runtime manifest exists; otherwise why the runtime tests are skipped. Only looks
// for the manifest (cheap, done at static init for every test process); loading it is the test.
std::string no_runtime_reason() {
  namespace fs = std::filesystem;
  if (const char* j = std::getenv("XR_RUNTIME_JSON"); j && *j)
    return fs::exists(j) ? std::string() : std::string("XR_RUNTIME_JSON names a missing file: ") + j;
  std::vector<fs::path> dirs;
  if (const char* c = std::getenv("XDG_CONFIG_HOME"); c && *c) dirs.emplace_back(c);
  else if (const char* h = std::getenv("HOME"); h && *h) dirs.emplace_back(fs::path(h) / ".config");
  dirs.emplace_back("/etc/xdg");
  for (const auto& d : dirs)
    if (fs::exists(d / "openxr/1/active_runtime.json")) return {};
  return "no OpenXR runtime (XR_RUNTIME_JSON unset and no active_runtime.json installed)";
}

const std::string kNoRuntime = [] {
  std::string r = no_runtime_reason();
  if (!r.empty()) std::fprintf(stderr, "xr_session_test: OpenXR runtime tests SKIPPED: %s\n", r.c_str());
  return r;
}();

World small_cloth() {
  GridSpec g;
  g.width = g.height = 0.4f;
  g.columns = g.rows = 8;
  Mesh mesh = make_grid(g);
  transform_mesh(mesh, glm::mat4(1.f));
  return World(build_cloth_model(mesh, Material{}, {g.rows * (g.columns + 1), g.rows * (g.columns + 1) + g.columns}),
               WorldConfig{});
}

// Iterates until stop() or the deadline, then asks to exit and drains until the runtime ends it.
template <typename Stop>
void run_session(XrSessionRunner& r, XrInputSink& sink, bool headless, double deadline_s, Stop stop) {
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

TEST_CASE("OpenXR runtime: a headless session runs states - bindings and the replayed grab path" *
          doctest::skip(!kNoRuntime.empty())) {
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
  World world = small_cloth();
  WorldInputSink sink(world);
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
  CHECK(s.invalid_poses == 0);
  CHECK(world.invalid_pose_count() == 0);
}

TEST_CASE("OpenXR runtime: a graphics session renders both eyes through XR_KHR_vulkan_enable2" *
          doctest::skip(!kNoRuntime.empty())) {
  ClearEyeRenderer clear({1.f, 0.f, 0.f, 1.f}, {0.f, 0.f, 1.f, 1.f});
  XrSessionConfig cfg;
  cfg.renderer = &clear;
  XrSessionRunner r(cfg);
  r.create_session();
  World world = small_cloth();
  WorldInputSink sink(world);
  run_session(r, sink, false, 8.0, [&] { return r.stats().frames_rendered >= 10; });
  const XrRunStats& s = r.stats();
  CAPTURE(s.runtime);
  CHECK(r.done());
  CHECK(s.frames_rendered >= 10);
  CHECK(clear.eyes_rendered() == 2 * s.frames_rendered);
  CHECK(s.rejected_profiles.empty());
  CHECK(s.session_states.back() == "XR_SESSION_STATE_EXITING");
  CHECK(s.invalid_poses == 0);
}
