#pragma once
// Desktop mouse and keyboard -> camera moves and hand input. Left button grabs the cloth under the
// cursor with the left hand (ray pick; not through a collider drawn in front of it), right button with
// the right hand; dragging moves that hand in
// the view plane, the wheel moves it in depth. Off the cloth, left drag orbits, right or middle drag
// pans, the wheel zooms. Hand input and the R reset go only through the InputSink, as XR input does. No
// GLFW here: the window forwards its callbacks, so tests can drive this with synthetic events too.
// Tools (keys 1 to 6: grab, cut, remove, expand, shrink, seam; [ and ] the brush radius): with a tool other
// than grab, the left button applies it on the cloth under the cursor (engine/tool_stroke.h); a drag that
// leaves the cloth ends its stroke there. The right button still grabs with the right hand.
#include <cstdint>
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include <glm/glm.hpp>

#include "engine/camera.h"
#include "engine/input_sink.h"
#include "engine/snapshot.h"
#include "engine/tool_stroke.h"

namespace weft {

enum class MouseButton : uint8_t { Left = 0, Right = 1, Middle = 2 };

class DesktopController {
 public:
  static constexpr float kGrabRadius = 0.03f;   // m
  static constexpr float kDepthStep = 0.03f;    // m per wheel notch while holding

  // The snapshot (positions and its topology; the mesh when it carries none) is read at each press and
  // tool move for the ray pick; clock gives the sim time for samples.
  DesktopController(InputSink& sink, const SnapshotMesh& mesh, const ClothSnapshot& snapshot,
                    std::function<double()> clock);

  OrbitCamera& camera() { return camera_; }
  // Window size in the units of cursor positions (screen coordinates).
  void set_viewport(glm::vec2 size) { viewport_ = size; }
  RenderView view() const { return camera_.view(viewport_.x / std::max(viewport_.y, 1.f)); }

  void mouse_button(MouseButton button, bool pressed, glm::vec2 cursor);
  void cursor_moved(glm::vec2 cursor);
  void scroll(float notches);
  // Keys by character: R reset, P or ' ' pause, N single step, S strain view, J noise, H help, Q/Esc quit,
  // '1'..'6' the tool, '[' and ']' the brush radius (x 0.8, x 1.25).
  void key(char key);

  const ToolStroke& tools() const { return tools_; }
  // "cut", "seam (run b)", ... for the window title; changes only when the tool or the seam's state does.
  std::string tool_label() const;

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
  // The cloth point under the cursor, if it shows (not behind a collider).
  std::optional<glm::vec3> pick(glm::vec2 cursor) const;
  // Where the tool's stroke is under the cursor: the picked cloth, or off it a blade's plane (cut only).
  std::optional<glm::vec3> tool_point(glm::vec2 cursor) const;

  InputSink& sink_;
  const SnapshotMesh& mesh_;
  const ClothSnapshot& snapshot_;
  std::function<double()> clock_;
  OrbitCamera camera_;
  glm::vec2 viewport_{1280.f, 720.f};
  glm::vec2 cursor_{0.f};
  HandDrag hand_[2];
  bool orbiting_ = false, panning_ = false;
  ToolStroke tools_;
  glm::vec3 tool_point_{0.f};  // the stroke's last point on the cloth
  bool step_ = false, help_ = false, quit_ = false;
};

}  // namespace weft
