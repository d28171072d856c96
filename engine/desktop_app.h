#pragma once
// `weft run --mode window`: a GLFW window showing the default table scene, stepped in real time on
// the main thread, with mouse grabbing through DesktopController -> InputSink -> World.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/desktop_controller.h"
#include "engine/headless_demo.h"
#include "engine/noisy_input.h"
#include "engine/recording_input.h"

struct GLFWwindow;

namespace weft {

class Renderer;
class VulkanContext;
class WindowTarget;

struct DesktopAppOptions {
  int width = 1280, height = 720;
  double tick_hz = 240;
  bool validation = false;
  bool vsync = true;
  int fixed_steps_per_frame = 0;  // > 0: exactly this many sim steps per frame (tests); 0: real time
  std::string title = "Weft";
  std::string record_path;           // non-empty: every input sample goes to this pose stream (issue 7)
  std::string scene_file;            // non-empty: this scene JSON instead of the built-in table
  std::string noise_profile = "all";  // what the J key injects (engine/pose_noise.h)
  uint64_t noise_seed = 1;
};

void print_desktop_help();

class DesktopApp {
 public:
  // Throws std::runtime_error when no window can be opened (no display, no Vulkan surface support).
  explicit DesktopApp(const DesktopAppOptions& options);
  ~DesktopApp();
  DesktopApp(const DesktopApp&) = delete;
  DesktopApp& operator=(const DesktopApp&) = delete;

  // Polls events, steps the sim, draws. Returns false once the window was closed or quit was asked.
  bool frame();

  GLFWwindow* window() const { return window_; }
  DesktopController& controller() { return *controller_; }
  World& world() { return scene_.world; }
  DirectWorldInput& input() { return input_; }
  const ClothSnapshot& snapshot() const { return snapshot_; }
  const std::string& device_name() const;
  uint64_t validation_errors() const;
  uint64_t frames_drawn() const { return frames_drawn_; }
  uint64_t ticks() const { return ticks_; }
  // Ends the recording (end record with the tick count and state hash); also done by the destructor.
  void finish_recording();

 private:
  void on_key(int key, int action);

  DesktopAppOptions options_;
  DemoScene scene_;
  DirectWorldInput input_;
  // pose path: controller -> noisy_ (J key) -> recorder_ (if recording) -> input_ (conditioning, World)
  std::unique_ptr<PoseStreamWriter> writer_;
  std::unique_ptr<RecordingInput> recorder_;
  std::unique_ptr<NoisyInput> noisy_;
  uint64_t ticks_ = 0;
  SnapshotMesh mesh_;
  ClothSnapshot snapshot_;
  GLFWwindow* window_ = nullptr;
  std::unique_ptr<VulkanContext> ctx_;
  std::unique_ptr<WindowTarget> target_;
  std::unique_ptr<Renderer> renderer_;
  std::unique_ptr<DesktopController> controller_;
  std::chrono::steady_clock::time_point last_;
  double accumulator_ = 0;
  uint64_t frames_drawn_ = 0;
};

}  // namespace weft
