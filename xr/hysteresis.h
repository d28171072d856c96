#pragma once
// A latch with two thresholds, so a value hovering near one threshold does not chatter between
// grab and release. Used for the squeeze axis (engage high, let go low) and for the thumb-index
// pinch distance (engage close, let go far).
#include <cstdint>

namespace weft::xr {

enum class Edge : uint8_t { None, Engaged, Released };

class HysteresisLatch {
 public:
  // engage < release: engages when the value drops to engage (a distance); engage > release:
  // engages when it rises to engage (a squeeze). The values must differ.
  HysteresisLatch(float engage, float release) : engage_(engage), release_(release) {}

  Edge update(float value) {
    const bool rising = engage_ > release_;
    if (!engaged_) {
      if (rising ? value >= engage_ : value <= engage_) {
        engaged_ = true;
        return Edge::Engaged;
      }
    } else if (rising ? value <= release_ : value >= release_) {
      engaged_ = false;
      return Edge::Released;
    }
    return Edge::None;  // NaN lands here too: no comparison holds
  }
  // Lets go without an input (tracking lost, session unfocused); returns Released if it was held.
  Edge reset() {
    const bool was = engaged_;
    engaged_ = false;
    return was ? Edge::Released : Edge::None;
  }
  bool engaged() const { return engaged_; }
  float engage_threshold() const { return engage_; }
  float release_threshold() const { return release_; }

 private:
  float engage_, release_;
  bool engaged_ = false;
};

// Squeeze axis in [0, 1]; click inputs report 0 or 1 and cross both thresholds at once.
inline HysteresisLatch make_squeeze_latch() { return HysteresisLatch(0.7f, 0.35f); }
// Thumb tip to index tip, metres: pinched below 1.5 cm, open again beyond 3 cm.
inline HysteresisLatch make_pinch_latch() { return HysteresisLatch(0.015f, 0.03f); }

}  // namespace weft::xr
