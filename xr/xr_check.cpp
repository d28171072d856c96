#include "xr/xr_check.h"

#include <openxr/openxr_reflection.h>

namespace weft::xr {

#define WEFT_XR_ENUM_NAME(name, value) \
  case name:                           \
    return #name;

const char* result_name(XrResult result) {
  switch (result) {
    XR_LIST_ENUM_XrResult(WEFT_XR_ENUM_NAME)
    default:
      return "XR_RESULT_UNKNOWN";
  }
}

const char* session_state_name(XrSessionState state) {
  switch (state) {
    XR_LIST_ENUM_XrSessionState(WEFT_XR_ENUM_NAME)
    default:
      return "XR_SESSION_STATE_INVALID";
  }
}

#undef WEFT_XR_ENUM_NAME

XrError::XrError(XrResult result, const std::string& expression, const char* file, int line)
    : std::runtime_error(std::string(result_name(result)) + " from " + expression + " at " + file + ":" +
                         std::to_string(line)),
      result_(result), expression_(expression), where_(std::string(file) + ":" + std::to_string(line)) {}

XrResult check_xr(XrResult result, const char* expression, const char* file, int line) {
  if (XR_FAILED(result)) throw XrError(result, expression, file, line);
  return result;
}

}  // namespace weft::xr
