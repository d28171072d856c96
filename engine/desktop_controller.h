#pragma once
// Desktop mouse and keyboard -> camera moves and hand input. Left button grabs the cloth under the
// cursor with the left hand (ray pick; not through a collider drawn in front of it), right button with
// the right hand; dragging moves that hand in
// the view plane, the wheel moves it in depth. Off the cloth, left drag orbits, right or middle drag
// pans, the wheel zooms. Hand input and the R reset go only through the InputSink, as XR input does. No
// GLFW here: the window forwards its callbacks, so tests can drive this with synthetic events too.
#include <cstdint>
#include <algorithm>
#include <functional>
#include <utility>

#include <glm/glm.hpp>

#include "engine/camera.h"
#include "engine/input_sink.h"
#include "engine/snapshot.h"

namespace weft {

enum class MouseButton : uint8_t { Left = 0, Right = 1, Middle = 2 };

class DesktopController {
 public:
  static constexpr float kGrabRadius = 0.03f;   // m
  static constexpr float kDepthStep = 0.03f;    // m per wheel notch while holding

  // mesh and snapshot are read at each press for the ray pick; clock gives the sim time for samples.
  DesktopController(InputSink& sink, const SnapshotMesh& mesh, const ClothSnapshot& snapshot,
                    std::function<double()> clock);

  OrbitCamera& camera() { return camera_; }
  // Window size in the units of cursor positions (screen coordinates).
  void set_viewport(glm::vec2 size) { viewport_ = size; }
  RenderView view() const { return camera_.view(viewport_.x / std::max(viewport_.y, 1.f)); }

  void mouse_button(MouseButton button, bool pressed, glm::vec2 cursor);
  void cursor_moved(glm::vec2 cursor);
  void scroll(float notches);
  // Keys by character: R reset, P or ' ' pause, N single step, S strain view, J noise, H help, Q/Esc quit.
  void key(char key);

  bool holding(Hand hand) const { return hand_[int(hand)].held; }

  // Flags for the app loop; take_* clears the request.
  bool paused = false;
  bool strain_view = false;
  bool noise = false;  // noise injection on tracking input (DesktopApp routes the hands through a NoisyInput)
  bool take_step() { return std::exchange(step_, false); }
  bool take_help() { return std::exchange(help_, false); }
  bool quit_requested() const { return quit_; }

 private:
  struct HandDrag {
    bool held = false;
    glm::vec3 position{0.f};      // current hand target, world
    glm::vec3 plane_normal{0.f};  // the drag plane: through position, facing the camera
  };
  void send_pose(Hand hand);

  InputSink& sink_;
  const SnapshotMesh& mesh_;
  const ClothSnapshot& snapshot_;
  std::function<double()> clock_;
  OrbitCamera camera_;
  glm::vec2 viewport_{1280.f, 720.f};
  glm::vec2 cursor_{0.f};
  HandDrag hand_[2];
  bool orbiting_ = false, panning_ = false;
  bool step_ = false, help_ = false, quit_ = false;
};

}  // namespace weft
