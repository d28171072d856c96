#include "engine/tool_stroke.h"

#include <algorithm>

namespace weft {

const char* tool_name(Tool tool) {
  switch (tool) {
    case Tool::Grab: return "grab";
    case Tool::Cut: return "cut";
    case Tool::Remove: return "remove";
    case Tool::Expand: return "expand";
    case Tool::Shrink: return "shrink";
    case Tool::Seam: return "seam";
  }
  return "?";
}

void ToolStroke::select(Tool tool) {
  tool_ = tool;
  active_ = false;
  seam_marked_ = false;
}

void ToolStroke::scale_radius(float factor) {
  settings_.brush_radius = std::clamp(settings_.brush_radius * factor, settings_.min_radius, settings_.max_radius);
}

void ToolStroke::dab(const glm::vec3& p, InputSink& sink) {
  ToolAction a;
  a.kind = tool_ == Tool::Remove ? ToolActionKind::Remove : ToolActionKind::Scale;
  a.a_from = a.a_to = p;
  a.radius = settings_.brush_radius;
  a.factor = tool_ == Tool::Expand ? settings_.expand_factor : tool_ == Tool::Shrink ? settings_.shrink_factor : 1.f;
  sink.tool(a);
  last_ = p;
  ++counters_.brushes;
}

void ToolStroke::press(const glm::vec3& p, InputSink& sink) {
  if (tool_ == Tool::Grab) return;
  active_ = true;
  ++counters_.strokes;
  switch (tool_) {
    case Tool::Cut: last_ = p; break;
    case Tool::Remove: case Tool::Expand: case Tool::Shrink: dab(p, sink); break;
    case Tool::Seam: run_from_ = p; break;
    case Tool::Grab: break;
  }
}

void ToolStroke::move(const glm::vec3& p, InputSink& sink) {
  if (!active_) return;
  switch (tool_) {
    case Tool::Cut:
      if (glm::length(p - last_) >= settings_.min_segment) {
        ToolAction a;
        a.kind = ToolActionKind::Cut;
        a.a_from = last_;
        a.a_to = p;
        a.radius = settings_.cut_reach;
        sink.tool(a);
        last_ = p;
        ++counters_.cuts;
      }
      break;
    case Tool::Remove: case Tool::Expand: case Tool::Shrink:
      // Dabs half a radius apart paint a band without gaps; expand and shrink compound where they overlap.
      if (glm::length(p - last_) >= 0.5f * settings_.brush_radius) dab(p, sink);
      break;
    case Tool::Seam: case Tool::Grab: break;
  }
}

void ToolStroke::release(const glm::vec3& p, InputSink& sink) {
  if (!active_) return;
  move(p, sink);
  active_ = false;
  if (tool_ != Tool::Seam) return;
  if (!seam_marked_) {
    run_a_from_ = run_from_;
    run_a_to_ = p;
    seam_marked_ = true;
    return;
  }
  ToolAction a;
  a.kind = ToolActionKind::Sew;
  a.a_from = run_a_from_;
  a.a_to = run_a_to_;
  a.b_from = run_from_;
  a.b_to = p;
  sink.tool(a);
  seam_marked_ = false;
  ++counters_.sews;
}

}  // namespace weft
