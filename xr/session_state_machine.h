#pragma once
// The OpenXR session lifecycle as a pure function of the events the runtime sends, so recorded
// event sequences can drive it in tests. It says which call the application makes next; the
// session code makes it (OpenXR 1.0 spec, section 9.3 "Session lifecycle").
//
//   IDLE -> READY: xrBeginSession      SYNCHRONIZED / VISIBLE / FOCUSED: frames (input when FOCUSED)
//   STOPPING: xrEndSession             EXITING or LOSS_PENDING: destroy the session and leave
//   instance loss pending: leave and destroy the instance too
#include <cstdint>
#include <vector>

#include <openxr/openxr.h>

namespace weft::xr {

enum class SessionCall : uint8_t {
  None,
  BeginSession,        // xrBeginSession with the stereo view configuration
  EndSession,          // xrEndSession
  RequestExitSession,  // xrRequestExitSession: the app wants to stop while the session runs
  Exit,                // leave the loop, destroy the session (and the instance if it is lost)
};

class SessionStateMachine {
 public:
  // A session state change (from XrEventDataSessionStateChanged).
  SessionCall on_state(XrSessionState state);
  // Any event from xrPollEvent; events that do not concern the lifecycle return None.
  SessionCall on_event(const XrEventDataBuffer& event);
  // The application asks to stop (time or frame limit, Ctrl-C).
  SessionCall request_exit();
  // The call the machine asked for has been made (BeginSession succeeded: running; EndSession: stopped).
  void begun() { running_ = true; }
  void ended() { running_ = false; }

  XrSessionState state() const { return state_; }
  bool running() const { return running_; }         // between xrBeginSession and xrEndSession
  bool frames_allowed() const { return running_; }  // wait/begin/end frame only while running
  bool input_focused() const { return state_ == XR_SESSION_STATE_FOCUSED; }
  bool exit_requested() const { return exit_requested_; }
  bool done() const { return done_; }
  bool instance_lost() const { return instance_lost_; }
  const std::vector<XrSessionState>& history() const { return history_; }  // states reached, in order
  uint64_t ignored_events() const { return ignored_; }

 private:
  XrSessionState state_ = XR_SESSION_STATE_UNKNOWN;
  bool running_ = false;
  bool exit_requested_ = false;
  bool done_ = false;
  bool instance_lost_ = false;
  std::vector<XrSessionState> history_;
  uint64_t ignored_ = 0;
};

}  // namespace weft::xr
