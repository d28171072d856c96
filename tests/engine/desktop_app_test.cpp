// The desktop window under a private Xvfb: 100+ frames, and a mouse grab and drag injected through
// the X server with XTest (so the events travel X -> GLFW's callbacks -> DesktopController -> the
// InputSink -> World), then checks that the grabbed vertices followed the cursor.
#include <doctest/doctest.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#define GLFW_EXPOSE_NATIVE_X11
#include <GLFW/glfw3.h>
#include <GLFW/glfw3native.h>

// X11 defines None as a macro; weft's enums use it as a name (sim/grasp.h).
#undef None
#include "engine/desktop_app.h"
#include "tests/skip.h"
#include "vulkan_probe.h"
#include "xvfb_server.h"

namespace weft {
namespace {

// libXtst and libX11 loaded at run time: the XTest header is not a build dependency.
struct XTest {
  using Motion = int (*)(Display*, int, int, int, unsigned long);
  using Button = int (*)(Display*, unsigned int, int, unsigned long);
  using Sync = int (*)(Display*, int);
  Motion motion = nullptr;
  Button button = nullptr;
  Sync sync = nullptr;
  bool load() {
    void* xtst = dlopen("libXtst.so.6", RTLD_NOW);
    void* x11 = dlopen("libX11.so.6", RTLD_NOW);
    if (!xtst || !x11) return false;
    motion = reinterpret_cast<Motion>(dlsym(xtst, "XTestFakeMotionEvent"));
    button = reinterpret_cast<Button>(dlsym(xtst, "XTestFakeButtonEvent"));
    sync = reinterpret_cast<Sync>(dlsym(x11, "XSync"));
    return motion && button && sync;
  }
};

bool window_test_possible() {
  static const bool ok = [] {
    if (!test::xvfb_installed()) {
      std::fprintf(stderr, "SKIPPED: Xvfb is not installed\n");
      return false;
    }
    if (!XTest().load()) {
      std::fprintf(stderr, "SKIPPED: libXtst/libX11 cannot be loaded\n");
      return false;
    }
    return test::vulkan_available();
  }();
  return ok;
}

}  // namespace

TEST_CASE("window: mouse grab and drag through X and GLFW moves the grabbed vertices") {
  WEFT_SKIP_IF(!window_test_possible(), "no Xvfb, libXtst or usable Vulkan device (see stderr)");
  test::XvfbServer xvfb;
  XTest xt;
  REQUIRE(xt.load());
  DesktopAppOptions o;
  o.width = 480;
  o.height = 360;
  o.validation = true;
  o.vsync = false;
  o.fixed_steps_per_frame = 2;
  DesktopApp app(o);
  Display* dpy = glfwGetX11Display();
  REQUIRE(dpy != nullptr);

  int frames = 0;
  auto run = [&](int n) {
    for (int i = 0; i < n; ++i) {
      REQUIRE(app.frame());
      ++frames;
    }
  };
  run(40);

  // Cursor onto the cloth's centre vertex, in root-window coordinates.
  const size_t centre = app.runtime().scene().vertices / 2;
  const glm::vec3 start = app.snapshot().position[centre];
  int wx = 0, wy = 0, ww = 0, wh = 0;
  glfwGetWindowPos(app.window(), &wx, &wy);
  glfwGetWindowSize(app.window(), &ww, &wh);
  const glm::vec3 px = project_to_pixel(app.controller().view(), start, {float(ww), float(wh)});
  auto move_to = [&](float x, float y) {
    xt.motion(dpy, -1, wx + int(x), wy + int(y), 0);
    xt.sync(dpy, 0);
  };
  move_to(px.x, px.y);
  run(3);
  xt.button(dpy, 1, 1, 0);  // left button down: grab with the left hand
  xt.sync(dpy, 0);
  run(3);
  REQUIRE(app.controller().holding(Hand::Left));
  auto held_left = [&] {
    std::vector<uint32_t> v;
    for (uint32_t i = 0; i < app.snapshot().grasped.size(); ++i)
      if (app.snapshot().grasped[i] & 1u) v.push_back(i);
    return v;
  };
  const std::vector<uint32_t> held = held_left();
  REQUIRE(!held.empty());

  for (int k = 1; k <= 8; ++k) {  // drag 80 px up
    move_to(px.x, px.y - 10.f * k);
    run(3);
  }
  run(20);
  const glm::vec3 hand = app.snapshot().hands[0].position;
  CHECK(hand.y > start.y + 0.08f);
  for (size_t k = 0; k < held.size(); ++k) {
    const glm::vec3 x = app.snapshot().position[held[k]];
    CHECK(x.y > start.y + 0.08f);                 // the vertices went up with the cursor
    CHECK(glm::length(x - hand) < 0.05f);         // and stay in the hand (grab radius 3 cm)
  }

  xt.button(dpy, 1, 0, 0);  // release
  xt.sync(dpy, 0);
  run(100 - frames > 5 ? 100 - frames : 5);
  CHECK_FALSE(app.controller().holding(Hand::Left));
  CHECK(held_left().empty());
  const TickStats stats = app.snapshot().stats;
  CHECK(stats.grabs == 1);  // the press on the cloth caught vertices, and it was counted once
  CHECK(stats.grab_misses == 0);
  CHECK(stats.events_rejected == 0);
  CHECK(frames >= 100);
  CHECK(app.frames_drawn() >= 100);
  CHECK(app.validation_errors() == 0);
}

}  // namespace weft

namespace weft {

// The render thread never waits for the sim (issue 13): with every tick made 30 ms slow (the sim can then
// run 1 tick in 7 of its 240 Hz schedule), the window still draws at least 80 % of the frames it draws with a
// normal sim in the same wall time (1.5 s, frames paced at 60 Hz as by a display); the sim reports the
// overrun as skipped ticks, and a grab and a release
// pressed meanwhile both reach it.
TEST_CASE("window: a slow sim tick does not slow the frame rate, and no input event is lost") {
  WEFT_SKIP_IF(!window_test_possible(), "no Xvfb, libXtst or usable Vulkan device (see stderr)");
  test::XvfbServer xvfb;
  XTest xt;
  REQUIRE(xt.load());
  auto frames_in = [&](double slow_ms, TickStats& stats) {
    DesktopAppOptions o;
    o.width = 320;
    o.height = 240;
    o.vsync = false;
    o.max_fps = 60;  // paced as a display would be: a renderer that waited for 30 ms ticks would fall to ~30
    o.runtime.priority = SimPriority::Normal;
    o.runtime.debug_tick_sleep_ms = slow_ms;
    DesktopApp app(o);
    Display* dpy = glfwGetX11Display();
    REQUIRE(dpy != nullptr);
    for (int i = 0; i < 10; ++i) REQUIRE(app.frame());  // warm-up: pipelines, first snapshots
    int wx = 0, wy = 0;
    glfwGetWindowPos(app.window(), &wx, &wy);
    const glm::vec3 centre = app.snapshot().position[app.runtime().scene().vertices / 2];
    const glm::vec3 px = project_to_pixel(app.controller().view(), centre, {320.f, 240.f});
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t before = app.frames_drawn();
    bool pressed = false, released = false;
    for (;;) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (s >= 1.5) break;
      if (!pressed && s > 0.4) {
        xt.motion(dpy, -1, wx + int(px.x), wy + int(px.y), 0);
        xt.button(dpy, 1, 1, 0);
        xt.sync(dpy, 0);
        pressed = true;
      }
      if (!released && s > 0.8) {
        xt.button(dpy, 1, 0, 0);
        xt.sync(dpy, 0);
        released = true;
      }
      REQUIRE(app.frame());
    }
    const uint64_t frames = app.frames_drawn() - before;
    // Let the slow sim reach the queued events (they apply at the next tick it runs), then stop it.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    app.finish();
    stats = app.runtime().stats();
    return frames;
  };
  // Alternated twice and the best of each kept: other work on a shared machine slows one window or the
  // other, not the renderer's own behaviour.
  TickStats normal, slow;
  uint64_t normal_frames = 0, slow_frames = 0;
  for (int round = 0; round < 2; ++round) {
    normal_frames = std::max(normal_frames, frames_in(0, normal));
    slow_frames = std::max(slow_frames, frames_in(30, slow));
  }
  MESSAGE("frames in 1.5 s: normal sim " << normal_frames << ", 30 ms ticks " << slow_frames << "; ticks "
                                         << normal.ticks << " vs " << slow.ticks << ", skipped " << slow.skipped_ticks);
  CHECK(normal_frames > 20);
  CHECK(double(slow_frames) >= 0.8 * double(normal_frames));
  CHECK(slow.skipped_ticks > 0);          // the overrun is reported
  CHECK(slow.ticks < normal.ticks / 3);   // and real: the slow sim ran far fewer ticks
  for (const TickStats* s : {&normal, &slow}) {
    CAPTURE(s->events_applied);
    CAPTURE(s->events_late);
    CHECK(s->events_rejected == 0);
    CHECK(s->grabs == 1);                 // the press on the cloth reached the sim and caught it
    CHECK(s->releases == 1);              // and so did the release
  }
}

}  // namespace weft
