#include "xr/hand_tools.h"

#include "xr/location_validity.h"

namespace weft::xr {

bool HandTools::update(Hand hand, const HandSample& s, InputSink& sink) {
  PerHand& h = hands_[size_t(hand)];
  bool changed = false;
  if (s.tool_button && !h.button) {  // the press, not the hold
    h.stroke.cycle();
    h.trigger.reset();  // a stroke in progress ends with the old tool; the new one waits for a fresh pull
    changed = true;
    ++counters_.cycles;
  }
  h.button = s.tool_button;

  const bool pose_ok = location_flags_valid(s.flags) && pose_finite_unit(s.grip);
  const Edge edge = h.trigger.update(s.trigger);
  if (!pose_ok) {
    if (h.stroke.active()) {
      h.stroke.interrupt();
      ++counters_.dropped;
    }
    return changed;
  }
  const glm::vec3 p = s.grip.position;
  if (edge == Edge::Released) {
    h.stroke.release(p, sink);
  } else if (h.trigger.engaged()) {
    if (!h.stroke.active()) {
      if (edge == Edge::Engaged && h.stroke.tool() != Tool::Grab) {
        h.stroke.press(p, sink);
        ++counters_.strokes;
      }
    } else {
      h.stroke.move(p, sink);
    }
  }
  return changed;
}

void HandTools::interrupt_all() {
  for (PerHand& h : hands_) {
    h.stroke.interrupt();
    h.trigger.reset();
  }
}

}  // namespace weft::xr
