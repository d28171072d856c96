#pragma once
// A squeeze pulses the controller when the sim says the hand caught cloth, not when the grab was asked for
// (issue 34): a grab is an event for the sim thread, and only the snapshot it publishes after applying it
// says whether any vertex was taken. A grab that catches nothing stays silent.
#include <array>
#include <cstddef>

#include "sim/device.h"

namespace weft::xr {

class HapticGate {
 public:
  // How long a grab waits for the snapshot that shows it (s): a grab not shown by then caught nothing.
  static constexpr double kWait = 0.5;

  // A grab was sent at `time` (s); `live`: a real controller in focus (a replayed hand never vibrates).
  // `holding_now`: what the newest snapshot said of the hand when the grab was sent.
  void grab_requested(Hand hand, double time, bool live, bool holding_now) {
    Pending& p = pending_[std::size_t(hand)];
    p = {.active = true, .live = live, .since = time, .seen_free = !holding_now};
  }
  void released(Hand hand) { pending_[std::size_t(hand)].active = false; }
  // The newest snapshot's truth for the hand at `time`: true once when the pending grab shows as held.
  // A hand the snapshot still showed holding when the grab was sent (its release not applied yet) must
  // first show free, so an old hold is not taken for the new grab.
  bool observe(Hand hand, bool holding, double time) {
    Pending& p = pending_[std::size_t(hand)];
    if (!p.active) return false;
    if (!holding) p.seen_free = true;
    if (holding && p.seen_free) {
      p.active = false;
      return p.live;
    }
    if (time - p.since > kWait) p.active = false;  // caught nothing
    return false;
  }

 private:
  struct Pending {
    bool active = false;
    bool live = false;
    double since = 0;
    bool seen_free = false;
  };
  std::array<Pending, 2> pending_{};
};

}  // namespace weft::xr
