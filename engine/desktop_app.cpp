#include "engine/desktop_app.h"

#include <cstdio>
#include <stdexcept>

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include "engine/renderer.h"
#include "engine/snapshot_builder.h"
#include "engine/vk_check.h"
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
               "  R reset  P/space pause  N single step  S strain view  J noise on/off  H help  Esc quit\n");
}

DesktopApp::DesktopApp(const DesktopAppOptions& options)
    : options_(options), scene_(make_table_scene([&] {
        TableSceneSpec s;
        s.tick_hz = options.tick_hz;
        s.scene_file = options.scene_file;
        return s;
      }())),
      input_(scene_.world), mesh_(make_snapshot_mesh(scene_.world.model())) {
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
  renderer_ = std::make_unique<Renderer>(*ctx_, target_->format(), mesh_, scene_.props, target_->frames_in_flight());
  fill_snapshot(scene_.world, snapshot_);
  InputSink* sink = &input_;
  if (!options.record_path.empty()) {
    TableSceneSpec spec;
    spec.tick_hz = options.tick_hz;
    PoseStreamHeader header;
    header.quads = spec.quads, header.cloth_size = spec.cloth_size, header.tick_hz = spec.tick_hz;
    header.source = "window";
    writer_ = std::make_unique<PoseStreamWriter>(options.record_path, header);
    recorder_ = std::make_unique<RecordingInput>(input_, *writer_, ticks_);
    sink = recorder_.get();
  }
  noisy_ = std::make_unique<NoisyInput>(*sink, noise_profile(options.noise_profile), options.noise_seed);
  noisy_->enabled = false;
  controller_ = std::make_unique<DesktopController>(*noisy_, mesh_, snapshot_, [this] { return scene_.world.state().time; });
  controller_->camera() = scene_.camera;
  int ww = 0, wh = 0;
  glfwGetWindowSize(window_, &ww, &wh);
  controller_->set_viewport({float(ww), float(wh)});

  glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int button, int action, int) {
    if (button > GLFW_MOUSE_BUTTON_MIDDLE) return;
    const MouseButton b = button == GLFW_MOUSE_BUTTON_LEFT    ? MouseButton::Left
                          : button == GLFW_MOUSE_BUTTON_RIGHT ? MouseButton::Right
                                                              : MouseButton::Middle;
    app_of(w)->controller().mouse_button(b, action == GLFW_PRESS, cursor_of(w));
  });
  glfwSetCursorPosCallback(window_, [](GLFWwindow* w, double x, double y) {
    app_of(w)->controller().cursor_moved({float(x), float(y)});
  });
  glfwSetScrollCallback(window_, [](GLFWwindow* w, double, double dy) { app_of(w)->controller().scroll(float(dy)); });
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int) { app_of(w)->on_key(key, action); });
  glfwSetWindowSizeCallback(window_, [](GLFWwindow* w, int width, int height) {
    app_of(w)->controller().set_viewport({float(width), float(height)});
  });
  last_ = std::chrono::steady_clock::now();
}

void DesktopApp::finish_recording() {
  if (writer_) writer_->finish({ticks_, scene_.world.state_hash()});
}

DesktopApp::~DesktopApp() {
  try {
    finish_recording();
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
}

bool DesktopApp::frame() {
  glfwPollEvents();
  if (glfwWindowShouldClose(window_) || controller_->quit_requested()) return false;
  DesktopController& c = *controller_;
  if (c.take_help()) print_desktop_help();
  if (noisy_->enabled != c.noise) {
    noisy_->enabled = c.noise;
    std::fprintf(stderr, "weft: tracking noise '%s' %s\n", noisy_->noise().profile().name.c_str(), c.noise ? "on" : "off");
  }
  if (c.take_reset()) {
    if (recorder_) recorder_->record_reset();
    scene_.world.reset();
    input_.reset();
    c.drop_holds();
  }

  // Fixed ticks: real time (capped, so a slow frame cannot snowball), or a fixed count for tests.
  const auto now = std::chrono::steady_clock::now();
  const double dt = std::chrono::duration<double>(now - last_).count();
  last_ = now;
  int steps = 0;
  if (options_.fixed_steps_per_frame > 0) {
    steps = c.paused ? 0 : options_.fixed_steps_per_frame;
  } else if (!c.paused) {
    accumulator_ = std::min(accumulator_ + dt, 0.1);
    steps = int(accumulator_ / scene_.world.time_step());
    accumulator_ -= steps * scene_.world.time_step();
  }
  if (c.take_step()) steps = std::max(steps, 1);
  for (int i = 0; i < steps; ++i) {
    input_.before_step();
    scene_.world.step();
    apply_stand_in_contact(scene_.props, scene_.world.mutable_state());
    ++ticks_;
  }
  fill_snapshot(scene_.world, snapshot_);
  input_.fill_devices(snapshot_);

  RenderSettings settings;
  settings.strain_view = c.strain_view;
  settings.time = float(scene_.world.state().time);
  const bool drawn = target_->draw(*renderer_, snapshot_, [&](VkExtent2D e) {
    return c.camera().view(float(e.width) / float(std::max(e.height, 1u)));
  }, settings);
  if (drawn) ++frames_drawn_;
  else glfwWaitEventsTimeout(0.02);  // minimised: idle instead of spinning
  return true;
}

}  // namespace weft
