#pragma once
// Controller hands to tools (issue 37): each hand holds a tool of its own (engine/tool_stroke.h), picked
// by a button that cycles grab, cut, remove, expand, shrink, seam; the trigger, through a hysteresis latch,
// applies it at the grip point. A cut's blade is the hand's motion from frame to frame; remove, expand and
// shrink dab a brush at the hand; a seam is two trigger strokes, along one border and then the other.
// Squeeze stays grab whatever the tool (xr/hand_grabber.h). A pose the runtime does not vouch for ends the
// stroke where it was (a blade never jumps across a tracking gap).
#include <array>
#include <cstdint>

#include "engine/input_sink.h"
#include "engine/tool_stroke.h"
#include "xr/hand_grabber.h"
#include "xr/hysteresis.h"

namespace weft::xr {

struct HandToolCounters {
  uint64_t cycles = 0;    // tool changes by the button
  uint64_t strokes = 0;   // trigger strokes started with a tool
  uint64_t dropped = 0;   // strokes ended by a pose the runtime did not vouch for
};

class HandTools {
 public:
  HandTools() = default;
  explicit HandTools(ToolSettings settings) : hands_{PerHand{ToolStroke(settings)}, PerHand{ToolStroke(settings)}} {}
  // Returns true when the tool changed this frame (the caller may pulse the haptics).
  bool update(Hand hand, const HandSample& sample, InputSink& sink);
  // Ends both hands' strokes without a last point (focus lost, live input taking over).
  void interrupt_all();

  Tool tool(Hand hand) const { return hands_[size_t(hand)].stroke.tool(); }
  const ToolStroke& stroke(Hand hand) const { return hands_[size_t(hand)].stroke; }
  const HandToolCounters& counters() const { return counters_; }

 private:
  struct PerHand {
    ToolStroke stroke;
    HysteresisLatch trigger = make_squeeze_latch();  // the trigger is an axis like the squeeze
    bool button = false;                              // held last frame (press edge cycles)
  };
  std::array<PerHand, 2> hands_;
  HandToolCounters counters_;
};

}  // namespace weft::xr
