#include "xr/session_state_machine.h"

namespace weft::xr {

SessionCall SessionStateMachine::on_state(XrSessionState state) {
  state_ = state;
  history_.push_back(state);
  switch (state) {
    case XR_SESSION_STATE_READY:
      // An exit asked for before the session ran: there is nothing to begin.
      if (exit_requested_) {
        done_ = true;
        return SessionCall::Exit;
      }
      return running_ ? SessionCall::None : SessionCall::BeginSession;
    case XR_SESSION_STATE_STOPPING:
      return running_ ? SessionCall::EndSession : SessionCall::None;
    case XR_SESSION_STATE_EXITING:
    case XR_SESSION_STATE_LOSS_PENDING:
      done_ = true;
      return SessionCall::Exit;
    default:  // IDLE, SYNCHRONIZED, VISIBLE, FOCUSED: nothing to call, the flags above change
      return SessionCall::None;
  }
}

SessionCall SessionStateMachine::on_event(const XrEventDataBuffer& event) {
  switch (event.type) {
    case XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED:
      return on_state(reinterpret_cast<const XrEventDataSessionStateChanged&>(event).state);
    case XR_TYPE_EVENT_DATA_INSTANCE_LOSS_PENDING:
      instance_lost_ = true;
      done_ = true;
      return SessionCall::Exit;
    default:
      ++ignored_;
      return SessionCall::None;
  }
}

SessionCall SessionStateMachine::request_exit() {
  if (exit_requested_ || done_) return SessionCall::None;
  exit_requested_ = true;
  if (running_) return SessionCall::RequestExitSession;  // the runtime answers with STOPPING, then EXITING
  done_ = true;
  return SessionCall::Exit;
}

}  // namespace weft::xr
