#include <doctest/doctest.h>

#include <vector>

#include "xr/session_state_machine.h"

using namespace weft::xr;

namespace {
XrEventDataBuffer state_event(XrSessionState s) {
  XrEventDataBuffer b{};
  auto& e = reinterpret_cast<XrEventDataSessionStateChanged&>(b);
  e.type = XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED;
  e.state = s;
  return b;
}
XrEventDataBuffer typed_event(XrStructureType t) {
  XrEventDataBuffer b{};
  b.type = t;
  return b;
}
// Feeds events, making each call the machine asks for; returns the calls in order.
std::vector<SessionCall> drive(SessionStateMachine& m, const std::vector<XrEventDataBuffer>& events) {
  std::vector<SessionCall> calls;
  for (const auto& e : events) {
    const SessionCall c = m.on_event(e);
    if (c == SessionCall::BeginSession) m.begun();
    if (c == SessionCall::EndSession) m.ended();
    if (c != SessionCall::None) calls.push_back(c);
  }
  return calls;
}
}  // namespace

TEST_CASE("a full session: begin on READY - frames while running - input only when FOCUSED - end on STOPPING") {
  SessionStateMachine m;
  auto calls = drive(m, {state_event(XR_SESSION_STATE_IDLE), state_event(XR_SESSION_STATE_READY)});
  CHECK(calls == std::vector{SessionCall::BeginSession});
  CHECK(m.frames_allowed());
  drive(m, {state_event(XR_SESSION_STATE_SYNCHRONIZED), state_event(XR_SESSION_STATE_VISIBLE)});
  CHECK_FALSE(m.input_focused());
  drive(m, {state_event(XR_SESSION_STATE_FOCUSED)});
  CHECK(m.input_focused());
  // The user quits from the runtime's menu.
  calls = drive(m, {state_event(XR_SESSION_STATE_VISIBLE), state_event(XR_SESSION_STATE_SYNCHRONIZED),
                    state_event(XR_SESSION_STATE_STOPPING)});
  CHECK(calls == std::vector{SessionCall::EndSession});
  CHECK_FALSE(m.running());
  calls = drive(m, {state_event(XR_SESSION_STATE_IDLE), state_event(XR_SESSION_STATE_EXITING)});
  CHECK(calls == std::vector{SessionCall::Exit});
  CHECK(m.done());
  CHECK_FALSE(m.instance_lost());
  CHECK(m.history() == std::vector<XrSessionState>{XR_SESSION_STATE_IDLE, XR_SESSION_STATE_READY,
                                                   XR_SESSION_STATE_SYNCHRONIZED, XR_SESSION_STATE_VISIBLE,
                                                   XR_SESSION_STATE_FOCUSED, XR_SESSION_STATE_VISIBLE,
                                                   XR_SESSION_STATE_SYNCHRONIZED, XR_SESSION_STATE_STOPPING,
                                                   XR_SESSION_STATE_IDLE, XR_SESSION_STATE_EXITING});
}

TEST_CASE("the app's own exit request goes through xrRequestExitSession while running") {
  SessionStateMachine m;
  drive(m, {state_event(XR_SESSION_STATE_IDLE), state_event(XR_SESSION_STATE_READY),
            state_event(XR_SESSION_STATE_FOCUSED)});
  CHECK(m.request_exit() == SessionCall::RequestExitSession);
  CHECK(m.request_exit() == SessionCall::None);  // asked once
  CHECK_FALSE(m.done());
  auto calls = drive(m, {state_event(XR_SESSION_STATE_VISIBLE), state_event(XR_SESSION_STATE_SYNCHRONIZED),
                         state_event(XR_SESSION_STATE_STOPPING), state_event(XR_SESSION_STATE_IDLE),
                         state_event(XR_SESSION_STATE_EXITING)});
  CHECK(calls == std::vector{SessionCall::EndSession, SessionCall::Exit});
  CHECK(m.done());
}

TEST_CASE("exit before the session runs needs no request - a later READY does not begin") {
  SessionStateMachine m;
  drive(m, {state_event(XR_SESSION_STATE_IDLE)});
  CHECK(m.request_exit() == SessionCall::Exit);
  CHECK(m.done());
  SessionStateMachine m2;
  drive(m2, {state_event(XR_SESSION_STATE_IDLE)});
  m2.request_exit();
  CHECK(m2.on_event(state_event(XR_SESSION_STATE_READY)) == SessionCall::Exit);
}

TEST_CASE("session loss and instance loss leave the loop - other events are ignored and counted") {
  SessionStateMachine m;
  drive(m, {state_event(XR_SESSION_STATE_IDLE), state_event(XR_SESSION_STATE_READY),
            typed_event(XR_TYPE_EVENT_DATA_INTERACTION_PROFILE_CHANGED),
            typed_event(XR_TYPE_EVENT_DATA_REFERENCE_SPACE_CHANGE_PENDING)});
  CHECK(m.ignored_events() == 2);
  CHECK(m.on_event(state_event(XR_SESSION_STATE_LOSS_PENDING)) == SessionCall::Exit);
  CHECK(m.done());
  CHECK_FALSE(m.instance_lost());

  SessionStateMachine lost;
  drive(lost, {state_event(XR_SESSION_STATE_IDLE), state_event(XR_SESSION_STATE_READY)});
  CHECK(lost.on_event(typed_event(XR_TYPE_EVENT_DATA_INSTANCE_LOSS_PENDING)) == SessionCall::Exit);
  CHECK(lost.instance_lost());
  CHECK(lost.done());
}

TEST_CASE("a repeated READY while running does not begin twice - STOPPING before begin ends nothing") {
  SessionStateMachine m;
  CHECK(m.on_event(state_event(XR_SESSION_STATE_STOPPING)) == SessionCall::None);
  CHECK(m.on_event(state_event(XR_SESSION_STATE_READY)) == SessionCall::BeginSession);
  m.begun();
  CHECK(m.on_event(state_event(XR_SESSION_STATE_READY)) == SessionCall::None);
}
