#include "engine/desktop_app.h"

#include <algorithm>
#include <cstdio>
#include <thread>
#include <stdexcept>

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include "engine/renderer.h"
#include "engine/snapshot_interpolation.h"
#include "gpu/vk_check.h"
#include "engine/vulkan_context.h"
#include "engine/window_target.h"

namespace weft {
namespace {

DesktopApp* app_of(GLFWwindow* w) { return static_cast<DesktopApp*>(glfwGetWindowUserPointer(w)); }

glm::vec2 cursor_of(GLFWwindow* w) {
  double x = 0, y = 0;
  glfwGetCursorPos(w, &x, &y);
  return {float(x), float(y)};
}

}  // namespace

void print_desktop_help() {
  std::fprintf(stderr,
               "weft window controls:\n"
               "  left mouse on cloth    grab with the left hand; drag moves it in the view plane\n"
               "  right mouse on cloth   grab with the right hand\n"
               "  wheel while holding    move the hand(s) in depth; otherwise zoom\n"
               "  left drag off cloth    orbit;  right/middle drag off cloth: pan\n"
               "  1 grab  2 cut  3 remove  4 expand  5 shrink  6 seam: the left button applies the tool\n"
               "    cut: drag across the cloth; remove/expand/shrink: click or drag; seam: drag along one border,\n"
               "    then along the other   [ ] brush radius (the window title shows the tool)\n"
               "  R reset  P/space pause  N single step  S strain view  J noise on/off  H help  Esc quit\n");
}

DesktopApp::DesktopApp(const DesktopAppOptions& options) : options_(options) {
  RuntimeOptions ro = options.runtime;
  ro.lockstep = options.fixed_steps_per_frame > 0;
  ro.record = !options.record_path.empty();
  runtime_ = std::make_unique<Runtime>(ro);  // a bad scene fails here, before any window opens
  snapshot_.resize(runtime_->scene().vertices);
  glfwSetErrorCallback([](int code, const char* text) { std::fprintf(stderr, "weft: GLFW error %d: %s\n", code, text); });
  if (!glfwInit()) throw std::runtime_error("weft: cannot open a window (glfwInit failed; is DISPLAY set?)");
  if (!glfwVulkanSupported()) {
    glfwTerminate();
    throw std::runtime_error("weft: GLFW finds no Vulkan loader");
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
  window_ = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw std::runtime_error("weft: glfwCreateWindow failed");
  }
  glfwSetWindowUserPointer(window_, this);

  VulkanContextOptions vk;
  vk.validation = options.validation;
  uint32_t n = 0;
  const char** required = glfwGetRequiredInstanceExtensions(&n);
  for (uint32_t i = 0; i < n; ++i) vk.instance_extensions.emplace_back(required[i]);
  ctx_ = std::make_unique<VulkanContext>(vk);
  VkSurfaceKHR surface;
  WEFT_VK_CHECK(glfwCreateWindowSurface(ctx_->instance(), window_, nullptr, &surface));
  try {
    ctx_->create_device(surface);
  } catch (...) {
    vkDestroySurfaceKHR(ctx_->instance(), surface, nullptr);
    throw;
  }
  target_ = std::make_unique<WindowTarget>(*ctx_, window_, surface, options.vsync);
  renderer_ = std::make_unique<Renderer>(*ctx_, target_->format(), runtime_->mesh(), runtime_->scene().props,
                                         target_->frames_in_flight());
  if (!options.record_path.empty())
    writer_ = std::make_unique<PoseStreamWriter>(options.record_path, runtime_->stream_header("window"));
  noisy_ = std::make_unique<NoisyInput>(runtime_->input(), noise_profile(options.noise_profile), options.noise_seed);
  noisy_->enabled = false;
  controller_ = std::make_unique<DesktopController>(*noisy_, runtime_->mesh(), snapshot_, [this] { return input_clock(); });
  controller_->camera() = runtime_->scene().camera;
  int ww = 0, wh = 0;
  glfwGetWindowSize(window_, &ww, &wh);
  controller_->set_viewport({float(ww), float(wh)});
  update_title();

  glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int button, int action, int) {
    if (button > GLFW_MOUSE_BUTTON_MIDDLE) return;
    const MouseButton b = button == GLFW_MOUSE_BUTTON_LEFT    ? MouseButton::Left
                          : button == GLFW_MOUSE_BUTTON_RIGHT ? MouseButton::Right
                                                              : MouseButton::Middle;
    app_of(w)->controller().mouse_button(b, action == GLFW_PRESS, cursor_of(w));
    app_of(w)->update_title();  // a seam's first run done: "run b" next
  });
  glfwSetCursorPosCallback(window_, [](GLFWwindow* w, double x, double y) {
    app_of(w)->controller().cursor_moved({float(x), float(y)});
  });
  glfwSetScrollCallback(window_, [](GLFWwindow* w, double, double dy) { app_of(w)->controller().scroll(float(dy)); });
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int) { app_of(w)->on_key(key, action); });
  glfwSetWindowSizeCallback(window_, [](GLFWwindow* w, int width, int height) {
    app_of(w)->controller().set_viewport({float(width), float(height)});
  });
  runtime_->start();
  // Lockstep: the first frame draws tick 0.
  if (options.fixed_steps_per_frame > 0) runtime_->run_to(0);
}

double DesktopApp::input_clock() const {
  // Lockstep: samples belong to the tick being fed; live: the runtime clock now.
  return options_.fixed_steps_per_frame > 0 ? double(runtime_->fed_ticks()) / runtime_->scene().tick_hz
                                            : runtime_->clock_now();
}

void DesktopApp::finish() {
  if (finished_) return;
  finished_ = true;
  runtime_->stop();
  if (writer_) {
    runtime_->drain_input_log(*writer_);
    const TickStats st = runtime_->stats();
    if (st.input_log_dropped > 0)
      std::fprintf(stderr, "weft: the recording lost %llu inputs (log full): it will not replay exactly\n",
                   static_cast<unsigned long long>(st.input_log_dropped));
    writer_->finish({st.ticks, runtime_->world().state_hash()});
  }
}

DesktopApp::~DesktopApp() {
  try {
    finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft: %s\n", e.what());
  }
  controller_.reset();
  renderer_.reset();
  target_.reset();
  ctx_.reset();
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

const std::string& DesktopApp::device_name() const { return ctx_->device_name(); }
uint64_t DesktopApp::validation_errors() const { return ctx_->validation_errors(); }

void DesktopApp::on_key(int key, int action) {
  if (action != GLFW_PRESS) return;
  if (key == GLFW_KEY_ESCAPE) controller_->key(27);
  else if (key == GLFW_KEY_SPACE) controller_->key(' ');
  else if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z) controller_->key(char('A' + (key - GLFW_KEY_A)));
  else if (key >= GLFW_KEY_1 && key <= GLFW_KEY_6) controller_->key(char('1' + (key - GLFW_KEY_1)));
  else if (key == GLFW_KEY_LEFT_BRACKET) controller_->key('[');
  else if (key == GLFW_KEY_RIGHT_BRACKET) controller_->key(']');
  update_title();
}

void DesktopApp::update_title() {
  const std::string title = options_.title + " - " + controller_->tool_label();
  if (title != title_) glfwSetWindowTitle(window_, (title_ = title).c_str());
}

bool DesktopApp::frame() {
  if (options_.max_fps > 0) {  // paced like a display: wait for this frame's slot, never for the sim
    const auto now = std::chrono::steady_clock::now();
    const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(1.0 / options_.max_fps));
    if (next_frame_ > now) std::this_thread::sleep_until(next_frame_);
    next_frame_ = std::max(next_frame_ + period, now);
  }
  glfwPollEvents();
  if (glfwWindowShouldClose(window_) || controller_->quit_requested()) return false;
  DesktopController& c = *controller_;
  if (c.take_help()) print_desktop_help();
  if (noisy_->enabled != c.noise) {
    noisy_->enabled = c.noise;
    std::fprintf(stderr, "weft: tracking noise '%s' %s\n", noisy_->noise().profile().name.c_str(), c.noise ? "on" : "off");
  }
  SimThread& sim = runtime_->sim();
  const double tick = 1.0 / runtime_->scene().tick_hz;
  double draw_time = 0;
  if (options_.fixed_steps_per_frame > 0) {
    // Lockstep (tests): this frame's inputs belong to the ticks fed now; draw the newest snapshot.
    int steps = c.paused ? 0 : options_.fixed_steps_per_frame;
    if (c.take_step()) steps = std::max(steps, 1);
    runtime_->run_to(runtime_->fed_ticks() + uint64_t(steps));
    draw_time = 1e300;
  } else {
    if (c.paused != sim.paused()) c.paused ? sim.pause() : sim.resume();
    if (c.take_step()) sim.single_step();
    draw_time = runtime_->clock_now() - tick;  // one tick behind: between the two newest snapshots
  }
  if (writer_) runtime_->drain_input_log(*writer_);
  const double drawn_time = interpolate_snapshot(runtime_->snapshots(), draw_time, snapshot_);
  // How old the drawn cloth is when the frame starts drawing (the exchange and interpolation's latency;
  // the draw itself comes on top, as in any renderer).
  const double lag = options_.fixed_steps_per_frame > 0 || drawn_time < 0 ? -1 : runtime_->clock_now() - drawn_time;

  RenderSettings settings;
  settings.strain_view = c.strain_view;
  settings.time = float(std::max(drawn_time, 0.0));
  const bool drawn = target_->draw(*renderer_, snapshot_, [&](VkExtent2D e) {
    return c.camera().view(float(e.width) / float(std::max(e.height, 1u)));
  }, settings);
  if (drawn) {
    stats_.frame_done(lag);
  } else {
    glfwWaitEventsTimeout(0.02);  // minimised: idle instead of spinning
  }
  return true;
}

}  // namespace weft
