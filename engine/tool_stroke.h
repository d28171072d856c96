#pragma once
// Which tool a hand (or the mouse) holds and what one press-drag-release of it sends: the state machine
// shared by the window bindings (engine/desktop_controller.h) and the headset's (xr/xr_session.h). Pure:
// points in, ToolActions out through the InputSink, nothing else. Per stroke:
//   cut:            one blade segment per move from the previous point, once it is min_segment long;
//   remove, expand, shrink: a brush at the press, then again each time the point moved half a radius;
//   seam:           the first stroke marks run a (press to release), the second run b, and its release sews;
//   grab:           nothing here (the caller grabs with the hand as before).
// A stroke interrupted (the cursor left the cloth, the controller lost tracking) ends where it was.
#include <cstdint>

#include <glm/glm.hpp>

#include "engine/input_sink.h"

namespace weft {

enum class Tool : uint8_t { Grab, Cut, Remove, Expand, Shrink, Seam };
constexpr int kToolCount = 6;
const char* tool_name(Tool tool);  // "grab", "cut", "remove", "expand", "shrink", "seam"

struct ToolSettings {
  float brush_radius = 0.04f;  // m, remove / expand / shrink
  float min_radius = 0.01f, max_radius = 0.25f;
  float expand_factor = 1.15f;  // rest lengths times this per brush dab
  float shrink_factor = 0.87f;  // about 1 / 1.15: a dab of each roughly cancels
  float min_segment = 0.004f;   // m: shorter cut moves wait for the next (no degenerate blades)
  float cut_reach = 0.015f;     // m: how near the blade the cloth is cut (ClothEdit::radius of a cut)
};

struct ToolCounters {
  uint64_t cuts = 0, brushes = 0, sews = 0;  // actions sent
  uint64_t strokes = 0;                      // presses that started a stroke with a tool other than grab
};

class ToolStroke {
 public:
  explicit ToolStroke(ToolSettings settings = {}) : settings_(settings) {}

  Tool tool() const { return tool_; }
  // Picks a tool; a stroke in progress ends and a half-marked seam is forgotten.
  void select(Tool tool);
  void cycle() { select(Tool((int(tool_) + 1) % kToolCount)); }  // the headset button: grab, cut, ..., seam, grab
  // The brush radius times `factor`, clamped to the settings' range (the [ and ] keys).
  void scale_radius(float factor);
  float brush_radius() const { return settings_.brush_radius; }

  // The press, each move while pressed, and the release, at a point on (or in) the cloth, world frame.
  void press(const glm::vec3& p, InputSink& sink);
  void move(const glm::vec3& p, InputSink& sink);
  void release(const glm::vec3& p, InputSink& sink);
  // The stroke ends without a last point (the cursor left the cloth, tracking lost).
  void interrupt() { active_ = false; }

  bool active() const { return active_; }
  bool seam_half_done() const { return seam_marked_; }  // run a marked, waiting for run b
  const ToolCounters& counters() const { return counters_; }

 private:
  void dab(const glm::vec3& p, InputSink& sink);

  ToolSettings settings_;
  Tool tool_ = Tool::Grab;
  bool active_ = false;
  glm::vec3 last_{0.f};  // cut: the blade's previous point; brushes: the last dab
  glm::vec3 run_from_{0.f};
  bool seam_marked_ = false;
  glm::vec3 run_a_from_{0.f}, run_a_to_{0.f};
  ToolCounters counters_;
};

}  // namespace weft
