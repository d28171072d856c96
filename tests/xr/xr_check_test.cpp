#include <doctest/doctest.h>

#include <string>

#include "xr/xr_check.h"
#include "xr/xr_session.h"

using namespace weft::xr;

TEST_CASE("XR_CHECK passes success codes through and throws with the expression and file:line") {
  CHECK(XR_CHECK(XR_SUCCESS) == XR_SUCCESS);
  CHECK(XR_CHECK(XR_EVENT_UNAVAILABLE) == XR_EVENT_UNAVAILABLE);  // a success code, not an error
  const int line = __LINE__ + 2;
  try {
    XR_CHECK(XR_ERROR_FORM_FACTOR_UNAVAILABLE);
    FAIL("no exception");
  } catch (const XrError& e) {
    CHECK(e.result() == XR_ERROR_FORM_FACTOR_UNAVAILABLE);
    CHECK(e.expression() == "XR_ERROR_FORM_FACTOR_UNAVAILABLE");
    CHECK(e.where() == std::string(__FILE__) + ":" + std::to_string(line));
    CHECK(std::string(e.what()).find("XR_ERROR_FORM_FACTOR_UNAVAILABLE from") == 0);
  }
}

TEST_CASE("result and session state names come from the registry") {
  CHECK(std::string(result_name(XR_ERROR_RUNTIME_FAILURE)) == "XR_ERROR_RUNTIME_FAILURE");
  CHECK(std::string(result_name(XrResult(-987654))) == "XR_RESULT_UNKNOWN");
  CHECK(std::string(session_state_name(XR_SESSION_STATE_LOSS_PENDING)) == "XR_SESSION_STATE_LOSS_PENDING");
}

TEST_CASE("the no-runtime reasons name the three cases a user meets") {
  CHECK(describe_xr_unavailable(XR_ERROR_RUNTIME_FAILURE).find("runtime unavailable") != std::string::npos);
  CHECK(describe_xr_unavailable(XR_ERROR_RUNTIME_UNAVAILABLE).find("runtime unavailable") != std::string::npos);
  CHECK(describe_xr_unavailable(XR_ERROR_FORM_FACTOR_UNAVAILABLE).find("no headset") != std::string::npos);
  CHECK(describe_xr_unavailable(XR_ERROR_FORM_FACTOR_UNSUPPORTED).find("form factor unavailable") != std::string::npos);
  CHECK(describe_xr_unavailable(XR_ERROR_EXTENSION_NOT_PRESENT).find("XR_MND_headless") != std::string::npos);
}
