// The desktop window under a private Xvfb: 100+ frames, and a mouse grab and drag injected through
// the X server with XTest (so the events travel X -> GLFW's callbacks -> DesktopController -> the
// InputSink -> World), then checks that the grabbed vertices followed the cursor.
#include <doctest/doctest.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#define GLFW_EXPOSE_NATIVE_X11
#include <GLFW/glfw3.h>
#include <GLFW/glfw3native.h>

// X11 defines None as a macro; weft's enums use it as a name (sim/grasp.h).
#undef None
#include "engine/desktop_app.h"
#include "engine/png_writer.h"
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
  using Key = int (*)(Display*, unsigned int, int, unsigned long);
  using KeysymToKeycode = unsigned char (*)(Display*, unsigned long);
  using GetImage = XImage* (*)(Display*, unsigned long, int, int, unsigned int, unsigned int, unsigned long, int);
  using GetPixel = unsigned long (*)(XImage*, int, int);
  Motion motion = nullptr;
  Button button = nullptr;
  Sync sync = nullptr;
  Key key_event = nullptr;
  KeysymToKeycode keycode = nullptr;
  GetImage get_image = nullptr;
  GetPixel get_pixel = nullptr;
  bool load() {
    void* xtst = dlopen("libXtst.so.6", RTLD_NOW);
    void* x11 = dlopen("libX11.so.6", RTLD_NOW);
    if (!xtst || !x11) return false;
    motion = reinterpret_cast<Motion>(dlsym(xtst, "XTestFakeMotionEvent"));
    button = reinterpret_cast<Button>(dlsym(xtst, "XTestFakeButtonEvent"));
    key_event = reinterpret_cast<Key>(dlsym(xtst, "XTestFakeKeyEvent"));
    sync = reinterpret_cast<Sync>(dlsym(x11, "XSync"));
    keycode = reinterpret_cast<KeysymToKeycode>(dlsym(x11, "XKeysymToKeycode"));
    get_image = reinterpret_cast<GetImage>(dlsym(x11, "XGetImage"));
    get_pixel = reinterpret_cast<GetPixel>(dlsym(x11, "XGetPixel"));
    return motion && button && sync && key_event && keycode && get_image && get_pixel;
  }
  // A key press and release by X keysym (the ASCII code for digits and lower-case letters).
  void key(Display* dpy, unsigned long keysym) {
    const unsigned int code = keycode(dpy, keysym);
    key_event(dpy, code, 1, 0);
    key_event(dpy, code, 0, 0);
    sync(dpy, 0);
  }
  // The window's pixels as the X server has them (what a screenshot shows), RGBA8 rows top to bottom.
  std::vector<uint8_t> screenshot(Display* dpy, unsigned long window, int width, int height) {
    std::vector<uint8_t> rgba(size_t(width) * size_t(height) * 4, 255);
    XImage* img = get_image(dpy, window, 0, 0, unsigned(width), unsigned(height), ~0ul, 2 /* ZPixmap */);
    if (!img) return {};
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        const unsigned long p = get_pixel(img, x, y);  // 24-bit TrueColor: 0xRRGGBB
        uint8_t* o = &rgba[(size_t(y) * size_t(width) + size_t(x)) * 4];
        o[0] = uint8_t(p >> 16), o[1] = uint8_t(p >> 8), o[2] = uint8_t(p);
      }
    img->f.destroy_image(img);
    return rgba;
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

namespace weft {

// Issue 37's screenshot: in the window, the cut tool (key 2) dragged across the table's cloth from its middle
// out past each border cuts it in two; the right hand pulls the near part away; the window's pixels down the
// cloth's middle then go cloth, background (the table in the gap), cloth. Strain view (S) colours the
// cloth green at rest, which neither the table nor the floor is. Before the cut the same column has no gap.
TEST_CASE("window: the cut tool cuts the cloth in two and the screenshot shows the two parts apart") {
  WEFT_SKIP_IF(!window_test_possible(), "no Xvfb, libXtst or usable Vulkan device (see stderr)");
  test::XvfbServer xvfb;
  XTest xt;
  REQUIRE(xt.load());
  constexpr int W = 480, H = 360;
  DesktopAppOptions o;
  o.width = W;
  o.height = H;
  o.validation = true;
  o.vsync = false;
  o.fixed_steps_per_frame = 2;
  DesktopApp app(o);
  Display* dpy = glfwGetX11Display();
  REQUIRE(dpy != nullptr);
  const unsigned long win = glfwGetX11Window(app.window());
  auto run = [&](int n) {
    for (int i = 0; i < n; ++i) REQUIRE(app.frame());
  };
  run(60);  // the cloth settles on the table
  int wx = 0, wy = 0;
  glfwGetWindowPos(app.window(), &wx, &wy);
  auto to_pixel = [&](glm::vec3 p) { return project_to_pixel(app.controller().view(), p, {float(W), float(H)}); };
  auto move_to = [&](glm::vec3 px) {
    xt.motion(dpy, -1, wx + int(px.x), wy + int(px.y), 0);
    xt.sync(dpy, 0);
  };
  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const glm::vec3& p : app.snapshot().position) lo = glm::min(lo, p), hi = glm::max(hi, p);
  const float top = hi.y;  // the cloth lying on the table top
  const float cx = 0.5f * (lo.x + hi.x), cz = 0.5f * (lo.z + hi.z);
  OrbitCamera& camera = app.controller().camera();  // closer and steeper than the scene's: the cloth fills the view
  camera.target = {cx, top, cz};
  camera.yaw = 0.f;
  camera.pitch = 1.0f;
  camera.distance = 1.2f;
  run(2);

  xt.key(dpy, 's');  // strain view
  xt.key(dpy, '2');  // the cut tool
  run(2);
  REQUIRE(app.controller().tools().tool() == Tool::Cut);
  // The cloth's middle column, from the far part down the screen: 'c' cloth (green in strain view), 't' the
  // table (brown), 'o' anything else (a hand's gizmo, an edge's shading).
  auto column = [&](const std::vector<uint8_t>& img, int x, int y0) {
    std::string kinds;
    for (int y = std::max(y0, 0); y < H; ++y) {
      const int r = img[(size_t(y) * W + size_t(x)) * 4], g = img[(size_t(y) * W + size_t(x)) * 4 + 1],
                b = img[(size_t(y) * W + size_t(x)) * 4 + 2];
      kinds += g > r + 20 && g > b + 20 ? 'c' : r > g + 15 && r > b + 15 ? 't' : 'o';
    }
    return kinds;
  };
  // Rows from y0 to the first gap between two parts of cloth: at least 3 table pixels, with at most 4 other
  // pixels about them (-1: none).
  auto gap_row = [](const std::string& c) {
    const size_t start = c.find('c');
    if (start == std::string::npos) return -1;
    const size_t end = c.find_first_not_of('c', start);
    if (end == std::string::npos) return -1;
    const size_t next = c.find('c', end);
    if (next == std::string::npos || next - end > 60) return -1;
    const std::string between = c.substr(end, next - end);
    size_t table = 0;
    for (char k : between) table += k == 't';
    return table >= 3 && between.size() - table <= 4 ? int(end) : -1;
  };
  const glm::vec3 far = to_pixel({cx, top, cz - 0.15f}), cut_line = to_pixel({cx, top, cz});
  const std::vector<uint8_t> before = xt.screenshot(dpy, win, W, H);
  REQUIRE(!before.empty());
  const int before_gap = gap_row(column(before, int(far.x), int(far.y)));

  // Two strokes from the middle, each out past a border (off the cloth the blade goes on in its plane).
  for (float side : {1.f, -1.f}) {
    move_to(to_pixel({cx, top, cz}));
    run(2);
    xt.button(dpy, 1, 1, 0);
    xt.sync(dpy, 0);
    run(2);
    const float end = side > 0 ? hi.x + 0.08f : lo.x - 0.08f;
    for (int k = 1; k <= 12; ++k) {
      move_to(to_pixel({glm::mix(cx, end, float(k) / 12.f), top, cz}));
      run(2);
    }
    xt.button(dpy, 1, 0, 0);
    xt.sync(dpy, 0);
    run(4);
  }
  const TickStats cut_stats = app.snapshot().stats;
  CHECK(cut_stats.edits_applied > 0);
  CHECK(cut_stats.topology_changes > 0);
  CHECK(app.snapshot().position.size() > app.runtime().scene().vertices);  // the cut split vertices

  // The right hand takes the near part and pulls it towards the viewer.
  const glm::vec3 near = to_pixel({cx, top, cz + 0.12f});
  move_to(near);
  run(2);
  xt.button(dpy, 3, 1, 0);
  xt.sync(dpy, 0);
  run(2);
  REQUIRE(app.controller().holding(Hand::Right));
  for (int k = 1; k <= 8; ++k) {
    move_to(near + glm::vec3(0.f, 6.f * k, 0.f));
    run(3);
  }
  run(30);
  const std::vector<uint8_t> after = xt.screenshot(dpy, win, W, H);
  write_png(std::string(WEFT_BINARY_DIR) + "/window_cut_screenshot.png", after, W, H);
  const int after_gap = gap_row(column(after, int(far.x), int(far.y)));
  INFO("far part at row " << int(far.y) << ", cut line at row " << int(cut_line.y) << "; gap row before " << before_gap
                          << ", after " << after_gap << " (" << WEFT_BINARY_DIR << "/window_cut_screenshot.png)");
  CHECK(before_gap == -1);  // intact: cloth all the way down the middle
  REQUIRE(after_gap >= 0);  // cut: cloth, background, cloth
  CHECK(std::abs(int(far.y) + after_gap - int(cut_line.y)) < 25);  // the gap is where the cut was
  xt.button(dpy, 3, 0, 0);
  xt.sync(dpy, 0);
  run(2);
  CHECK(app.snapshot().stats.stream.nonfinite_ticks == 0);
  CHECK(app.validation_errors() == 0);
}

}  // namespace weft
