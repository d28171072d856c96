#pragma once
// The real OpenXR session: instance (every extension optional), head-mounted system, stereo view
// configuration, STAGE space (LOCAL when the runtime has no stage), hand actions with suggested
// bindings for five controller families, trackers and hand tracking when offered, the xrPollEvent
// loop driving SessionStateMachine, and either a frame loop with a swapchain per eye (graphics:
// the engine's VulkanContext, its instance and device created by the runtime through
// XR_KHR_vulkan_enable2; depth swapchains submitted with the projection layer when the runtime
// offers XR_KHR_composition_layer_depth) or, with XR_MND_headless, no frames at all and time taken
// from XR_KHR_convert_timespec_time. Input goes to an InputSink (engine/input_sink.h); eyes go to an XrEyeRenderer.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>
#include <openxr/openxr.h>

#include "xr/eye_renderer.h"
#include "xr/hand_grabber.h"
#include "xr/hand_tools.h"
#include "xr/pinch_detector.h"
#include "xr/pose_replay.h"
#include "xr/session_state_machine.h"
#include "xr/tracker_attacher.h"
#include "xr/tracker_roles.h"

namespace weft::xr {

struct XrSessionConfig {
  bool headless = false;              // XR_MND_headless: no graphics binding, no frames
  XrEyeRenderer* renderer = nullptr;  // required unless headless
  bool replay_when_motionless = true; // drive a motionless hand with the built-in replay stream
  ReplayConfig replay;                // where the replayed hands reach
  GrabConfig grab;
  float near_m = 0.05f, far_m = 100.f;
  bool validation = false;            // Vulkan validation layer (WEFT_VALIDATION=1 also turns it on)
  bool depth_layers = true;           // submit depth with the projection views when offered
  // The caller's clock now (s; the app: the runtime clock). An XR time T maps to clock() + (T - XR now),
  // XR now from xrConvertTimespecTimeToTimeKHR (without that extension the predicted display time is
  // taken to be one predicted display period ahead). Empty: seconds since the first XR time.
  std::function<double()> clock;
  // Pose of the scene's stage (where the user stands) in the scene: the reference space is made so
  // that its coordinates are the scene's (floor at y = 0, the user at this pose).
  Pose stage;
  // The Vive tracker role each tracker slot is kept for ("" none: Scene::tracker_roles): a body part that
  // follows a role is driven by that slot's device whichever order the trackers connect in.
  std::array<std::string, 4> tracker_roles;
};

// What a run reports (the `--json` summary of `weft run --mode xr[-headless]`).
struct XrRunStats {
  std::string runtime;                          // "Monado(XRT) by Collabora et al 21.0.0"
  std::string system;                           // system name
  std::vector<std::string> extensions;          // enabled ones
  std::string reference_space;                  // "STAGE" or "LOCAL"
  std::vector<std::string> interaction_profiles;// current profiles the runtime reported, in order seen
  std::vector<std::string> rejected_profiles;   // suggested bindings the runtime refused
  std::vector<std::string> session_states;      // states reached, in order
  std::vector<std::string> trackers;            // tracker roles seen
  uint64_t frames_rendered = 0;                 // frames submitted with a projection layer
  bool depth_submitted = false;                 // projection views carry XR_KHR_composition_layer_depth
  std::string vulkan_device;                    // the physical device the runtime chose
  bool validation = false;                      // the Vulkan validation layer is on
  uint64_t validation_errors = 0;               // errors it reported (0 when it is off)
  uint64_t hand_poses_received = 0;
  uint64_t head_poses_submitted = 0;  // headset poses sent as Device::Head (a body's head follows them)
  uint64_t tracker_poses_received = 0;
  uint64_t grabs = 0;                           // grab requests (whether they caught cloth: the sim's counters)
  uint64_t releases = 0;
  uint64_t tool_cycles = 0;                     // tool button presses (xr/hand_tools.h)
  uint64_t tool_strokes = 0;                    // trigger strokes with a tool (what they did: the sim's counters)
  uint64_t haptic_pulses = 0;                   // live hands only: a replayed grab never vibrates a real controller
  uint64_t replayed_hand_frames = 0;            // hand samples that came from the replay stream
  uint64_t replay_handoffs = 0;                 // hands that live input took over from the replay
  bool instance_lost = false;
};

class XrSessionRunner {
 public:
  // Creates the instance and finds the head-mounted system; throws XrError (see describe_xr_unavailable).
  explicit XrSessionRunner(const XrSessionConfig& config);
  ~XrSessionRunner();
  XrSessionRunner(const XrSessionRunner&) = delete;
  XrSessionRunner& operator=(const XrSessionRunner&) = delete;

  // Graphics device (when not headless), session, reference space, actions.
  void create_session();
  // One iteration: events, then a frame (graphics) or a time sample (headless) with input.
  // time_s is the iteration's predicted display time (headless: now) on the caller's clock
  // (XrSessionConfig::clock); -1 when the session is idle. Returns false when done.
  bool iterate(InputSink& sink, double& time_s);
  // Ask to stop: xrRequestExitSession while running, else done at once.
  void request_exit();
  // The cloth corners the replayed hands reach for, where they are now (scene = reference space
  // coordinates); ignored for a hand while it holds (xr/pose_replay.h track_replay_corner).
  void track_replay_corners(const glm::vec3& left, const glm::vec3& right);
  // What the newest snapshot says each hand holds (the sim's truth): a grab's haptic pulse waits for it.
  void observe_holding(bool left, bool right);
  bool done() const { return machine_.done(); }

  const XrRunStats& stats();  // refreshes counters
  const SessionStateMachine& machine() const { return machine_; }

  struct Impl;  // defined in xr_session.cpp

 private:
  std::unique_ptr<Impl> impl_;
  SessionStateMachine machine_;
};

// One line for a user: why XR could not start ("no OpenXR runtime is installed ...").
std::string describe_xr_unavailable(XrResult result);

// Cheap probe for `weft run --mode auto`: a runtime is installed and has a head-mounted system.
// Creates and destroys an instance; fills why either way.
bool xr_runtime_available(std::string& why);

}  // namespace weft::xr
