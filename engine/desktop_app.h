#pragma once
// `weft run --mode window`: a GLFW window showing a scene, with mouse grabbing through DesktopController
// -> InputSink -> the runtime's sim thread. The window thread never steps the cloth: it polls input,
// pushes poses and events, and draws the newest snapshots interpolated to its display time.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/desktop_controller.h"
#include "engine/frame_stats.h"
#include "engine/noisy_input.h"
#include "engine/runtime.h"

struct GLFWwindow;

namespace weft {

class Renderer;
class VulkanContext;
class WindowTarget;

struct DesktopAppOptions {
  int width = 1280, height = 720;
  bool validation = false;
  bool vsync = true;
  double max_fps = 0;                 // > 0: frames are paced to at most this rate (as a display would); 0: none
  // > 0: the runtime runs in lockstep and each frame feeds exactly this many ticks (deterministic tests);
  // 0: the sim free-runs in real time.
  int fixed_steps_per_frame = 0;
  std::string title = "Weft";
  RuntimeOptions runtime;             // scene, solver, tick rate, priority, recording (runtime.record)
  std::string record_path;            // non-empty: the inputs the sim applied go to this pose stream
  std::string noise_profile = "all";  // what the J key injects (engine/pose_noise.h)
  uint64_t noise_seed = 1;
};

void print_desktop_help();

class DesktopApp {
 public:
  // Throws std::runtime_error when no window can be opened (no display, no Vulkan surface support), and
  // SceneError for a scene that cannot be loaded.
  explicit DesktopApp(const DesktopAppOptions& options);
  ~DesktopApp();
  DesktopApp(const DesktopApp&) = delete;
  DesktopApp& operator=(const DesktopApp&) = delete;

  // Polls events, pushes input, draws the newest snapshot. Returns false once the window was closed or
  // quit was asked.
  bool frame();

  GLFWwindow* window() const { return window_; }
  DesktopController& controller() { return *controller_; }
  Runtime& runtime() { return *runtime_; }
  // What the last frame drew (interpolated): positions, grasp bits, hands.
  const ClothSnapshot& snapshot() const { return snapshot_; }
  const std::string& device_name() const;
  uint64_t validation_errors() const;
  uint64_t frames_drawn() const { return stats_.frames; }
  const FrameStats& frame_stats() const { return stats_; }
  // Stops the sim thread and, when recording, writes the end record (ticks and state hash); also done
  // by the destructor. After it, runtime().world() may be read.
  void finish();

 private:
  void on_key(int key, int action);
  void update_title();  // the window title names the tool (set only when it changes)
  double input_clock() const;

  DesktopAppOptions options_;
  std::unique_ptr<Runtime> runtime_;
  std::unique_ptr<PoseStreamWriter> writer_;
  std::unique_ptr<NoisyInput> noisy_;  // pose path: controller -> noisy_ (J key) -> runtime input
  ClothSnapshot snapshot_;
  GLFWwindow* window_ = nullptr;
  std::unique_ptr<VulkanContext> ctx_;
  std::unique_ptr<WindowTarget> target_;
  std::unique_ptr<Renderer> renderer_;
  std::unique_ptr<DesktopController> controller_;
  FrameStats stats_;
  std::string title_;
  bool finished_ = false;
  std::chrono::steady_clock::time_point next_frame_{};
};

}  // namespace weft
